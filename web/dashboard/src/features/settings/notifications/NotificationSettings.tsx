import { Card, Stack, Switch } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../../../../../shared/api/client';
import { api, unwrap } from '../../../api/client';
import { keys } from '../../../api/keys';
import { t, type MessageKey } from '../../../i18n';
import { NoticeBar, QueryState, SectionHeader, useNotice } from '../kit/ui';
import { useNotificationPreferences } from './queries';

type Preferences = Schemas['NotificationPreferencesDto'];
type Kind = keyof Preferences;

/** The six kinds, in the order an agent meets them: chats first, then tickets. */
const KINDS: { kind: Kind; label: MessageKey; description: MessageKey }[] = [
  {
    kind: 'new_conversation',
    label: 'settings.notifications.newConversation',
    description: 'settings.notifications.newConversationHint',
  },
  {
    kind: 'conversation_assigned',
    label: 'settings.notifications.conversationAssigned',
    description: 'settings.notifications.conversationAssignedHint',
  },
  {
    kind: 'visitor_reply',
    label: 'settings.notifications.visitorReply',
    description: 'settings.notifications.visitorReplyHint',
  },
  {
    kind: 'missed_chat',
    label: 'settings.notifications.missedChat',
    description: 'settings.notifications.missedChatHint',
  },
  {
    kind: 'ticket_assigned',
    label: 'settings.notifications.ticketAssigned',
    description: 'settings.notifications.ticketAssignedHint',
  },
  {
    kind: 'customer_reply',
    label: 'settings.notifications.customerReply',
    description: 'settings.notifications.customerReplyHint',
  },
];

/** The calling agent's notification mails: one switch per kind, saved as it is flipped. */
export default function NotificationSettings() {
  const queryClient = useQueryClient();
  const notice = useNotice();
  const preferences = useNotificationPreferences();
  const change = useMutation({
    mutationFn: (body: Partial<Preferences>) =>
      unwrap(api.PATCH('/api/agent/me/notifications', { body })),
    onSuccess: (result) => {
      queryClient.setQueryData(keys.me.notifications, result);
      notice.success(t('settings.notifications.saved'));
    },
    onError: notice.failure,
  });
  const data = preferences.data?.data;
  return (
    <>
      <SectionHeader
        title={t('settings.notifications.title')}
        description={t('settings.notifications.description')}
      />
      <NoticeBar notice={notice.notice} onClose={notice.clear} />
      <QueryState loading={preferences.isPending} error={preferences.error} />
      {data && (
        <Card
          withBorder
          padding="lg"
          component="section"
          aria-label={t('settings.notifications.title')}
        >
          <Stack gap="md">
            {KINDS.map(({ kind, label, description }) => (
              <Switch
                key={kind}
                label={t(label)}
                description={t(description)}
                checked={data[kind]}
                disabled={change.isPending}
                onChange={(event) => change.mutate({ [kind]: event.currentTarget.checked })}
              />
            ))}
          </Stack>
        </Card>
      )}
    </>
  );
}
