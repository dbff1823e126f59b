import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';

/** One site with its settings and widget key (owners and admins). */
export function useSite(siteId: number) {
  return useQuery({
    queryKey: keys.sites.one(siteId),
    queryFn: () =>
      unwrap(api.GET('/api/agent/sites/{site}', { params: { path: { site: siteId } } })),
    enabled: Number.isInteger(siteId),
  });
}
