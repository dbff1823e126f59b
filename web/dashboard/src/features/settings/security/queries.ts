import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../../../shared/api/client';
import type { paths } from '../../../../../shared/api/schema';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';

/** The organization's single sign-on settings. */
export function useSso() {
  return useQuery({
    queryKey: keys.sso.all,
    queryFn: () => unwrap(api.GET('/api/agent/sso')),
  });
}

/** Whether visitor trusted login is set up and on. */
export function useTrustedLogin() {
  return useQuery({
    queryKey: keys.trustedLogin.all,
    queryFn: () => unwrap(api.GET('/api/agent/visitor-trusted-login')),
  });
}

/** What the audit log is asked for: the filters, the page and its size. */
export type AuditLogQuery = NonNullable<
  paths['/api/agent/audit-log']['get']['parameters']['query']
>;

/** A page of the audit log (always the JSON page: no `format=csv`). */
export function useAuditLog(query: AuditLogQuery) {
  return useQuery({
    queryKey: keys.auditLog.list(query),
    queryFn: async () =>
      (await unwrap(
        api.GET('/api/agent/audit-log', { params: { query } }),
      )) as Schemas['AuditLogListResponseDto'],
  });
}
