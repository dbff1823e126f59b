import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';

/** The signed-in agent's own email notification preferences. */
export function useNotificationPreferences() {
  return useQuery({
    queryKey: keys.me.notifications,
    queryFn: () => unwrap(api.GET('/api/agent/me/notifications')),
  });
}
