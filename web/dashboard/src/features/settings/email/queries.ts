import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { allPages } from '../../../api/queries';
import { keys } from '../../../api/keys';

/** How many of the latest mails the log lists. */
const LOG_SIZE = 50;

/** The support addresses. */
export function useEmailInboxes() {
  return useQuery({
    queryKey: keys.emailInboxes.all,
    queryFn: () =>
      allPages((query) => unwrap(api.GET('/api/agent/email-inboxes', { params: { query } }))),
  });
}

/** The latest mails the service sent. */
export function useMailLog() {
  return useQuery({
    queryKey: keys.mailLog.all,
    queryFn: () =>
      unwrap(api.GET('/api/agent/mail-log', { params: { query: { per_page: LOG_SIZE } } })),
  });
}
