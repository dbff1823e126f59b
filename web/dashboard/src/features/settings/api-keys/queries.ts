import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { allPages } from '../../../api/queries';
import { keys } from '../../../api/keys';

/** The organization's API keys (never their secrets). */
export function useApiKeys() {
  return useQuery({
    queryKey: keys.apiKeys.all,
    queryFn: () =>
      allPages((query) => unwrap(api.GET('/api/agent/api-keys', { params: { query } }))),
  });
}
