import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';

/** The organization's own settings. */
export function useOrganization() {
  return useQuery({
    queryKey: keys.organization.all,
    queryFn: () => unwrap(api.GET('/api/agent/organization')),
  });
}
