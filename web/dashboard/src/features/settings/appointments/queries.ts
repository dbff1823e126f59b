import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';

/** A site's appointment settings, or the organization's default (`siteId` undefined). */
export function useAppointmentSettings(siteId: number | undefined) {
  const query = siteId === undefined ? {} : { site_id: siteId };
  return useQuery({
    queryKey: keys.appointmentSettings.site(siteId),
    queryFn: () => unwrap(api.GET('/api/agent/appointment-settings', { params: { query } })),
  });
}
