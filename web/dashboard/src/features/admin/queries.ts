import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../../../../shared/api/client';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';

export type PlatformOrganization = Schemas['PlatformOrganizationDto'];

export function usePlatformOrganizations(q: string, page: number) {
  return useQuery({
    queryKey: keys.platform.organizationPage(q, page),
    queryFn: () =>
      unwrap(
        api.GET('/api/platform/organizations', {
          params: { query: { page, per_page: 20, ...(q ? { q } : {}) } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function useQueueHealth() {
  return useQuery({
    queryKey: keys.platform.queues,
    queryFn: () => unwrap(api.GET('/api/platform/queues')),
    refetchInterval: 10_000,
  });
}

export function useInstances() {
  return useQuery({
    queryKey: keys.platform.instances,
    queryFn: () => unwrap(api.GET('/api/platform/instances')),
    refetchInterval: 15_000,
  });
}

export function useFailingWebhooks() {
  return useQuery({
    queryKey: keys.platform.failingWebhooks,
    queryFn: () => unwrap(api.GET('/api/platform/webhooks/failing')),
    refetchInterval: 30_000,
  });
}

export function useFailedMails() {
  return useQuery({
    queryKey: keys.platform.failedMails,
    queryFn: () => unwrap(api.GET('/api/platform/mail/failed')),
    refetchInterval: 30_000,
  });
}

type OrganizationChange =
  | { kind: 'update'; plan: 'free' | 'pro' | 'business'; subscription_ends_at: string | null }
  | { kind: 'suspend'; reason: string }
  | { kind: 'resume' };

export function useChangeOrganization(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: OrganizationChange) => {
      const path = { params: { path: { organization: id } } };
      switch (change.kind) {
        case 'update':
          return unwrap(
            api.PATCH('/api/platform/organizations/{organization}', {
              ...path,
              body: { plan: change.plan, subscription_ends_at: change.subscription_ends_at },
            }),
          );
        case 'suspend':
          return unwrap(
            api.POST('/api/platform/organizations/{organization}/suspend', {
              ...path,
              body: { reason: change.reason },
            }),
          );
        case 'resume':
          return unwrap(api.POST('/api/platform/organizations/{organization}/resume', path));
      }
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.platform.organizations }),
  });
}

export function useJobAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      action,
      queue,
      job,
    }: {
      action: 'retry' | 'remove';
      queue: string;
      job: string;
    }) => {
      const params = { params: { path: { queue, job } } };
      return action === 'retry'
        ? unwrap(api.POST('/api/platform/queues/{queue}/jobs/{job}/retry', params))
        : unwrap(api.DELETE('/api/platform/queues/{queue}/jobs/{job}', params));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.platform.queues }),
  });
}
