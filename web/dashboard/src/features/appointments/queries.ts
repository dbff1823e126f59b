import { useQuery } from '@tanstack/react-query';
import type { paths } from '../../../../shared/api/schema';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';

/** What the appointment list is asked for (site, status, date range, page size). */
export type AppointmentQuery = NonNullable<
  paths['/api/agent/appointments']['get']['parameters']['query']
>;

/** The appointments page's and the settings' list: one query per filter set. */
export function useAppointments(query: AppointmentQuery, enabled = true) {
  return useQuery({
    queryKey: keys.appointments.list(query),
    enabled,
    queryFn: () => unwrap(api.GET('/api/agent/appointments', { params: { query } })),
  });
}
