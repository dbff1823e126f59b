import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { allPages } from '../../../api/queries';
import { keys } from '../../../api/keys';

/** The webhook endpoints. */
export function useWebhooks() {
  return useQuery({
    queryKey: keys.webhooks.all,
    queryFn: () =>
      allPages((query) => unwrap(api.GET('/api/agent/webhooks', { params: { query } }))),
  });
}

/** One endpoint. */
export function useWebhook(id: number) {
  return useQuery({
    queryKey: keys.webhooks.one(id),
    queryFn: () =>
      unwrap(api.GET('/api/agent/webhooks/{webhook}', { params: { path: { webhook: id } } })),
  });
}

/** An endpoint's latest deliveries, followed every 2 s while one is still being tried. */
export function useWebhookDeliveries(id: number) {
  return useQuery({
    queryKey: keys.webhooks.deliveries(id),
    queryFn: () =>
      unwrap(
        api.GET('/api/agent/webhooks/{webhook}/deliveries', {
          params: { path: { webhook: id }, query: { per_page: 50 } },
        }),
      ),
    refetchInterval: (query) =>
      query.state.data?.data.some((delivery) => delivery.status === 'pending') ? 2000 : false,
  });
}
