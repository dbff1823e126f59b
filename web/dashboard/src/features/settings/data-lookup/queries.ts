import { useQuery } from '@tanstack/react-query';
import { api, ApiError, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';

/** A site's data-lookup settings; `null` while the site has none (the GET answers 404). */
export function useDataLookup(siteId: number | undefined) {
  return useQuery({
    queryKey: keys.dataLookup.site(siteId),
    enabled: siteId !== undefined,
    queryFn: async () => {
      try {
        return await unwrap(
          api.GET('/api/agent/sites/{site}/data-lookup', { params: { path: { site: siteId! } } }),
        );
      } catch (error) {
        // Nothing saved yet: the form starts empty.
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}
