import { Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { IconTicket } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { type Member } from '../../api/queries';
import { keys } from '../../api/keys';
import { t } from '../../i18n';
import { CreateTicketModal } from '../tickets/CreateTicketModal';
import { STATUS_COLOR } from '../tickets/options';

/** What the new ticket starts with: the chat's first words as the subject, its visitor's lines. */
export interface TicketDraftFromChat {
  subject: string;
  description: string;
  customer_name: string;
  customer_email: string;
}

const SUBJECT_MAX = 80;
const DESCRIPTION_MAX = 4000;

/** A draft ticket from the visitor's messages of a conversation. */
export function draftFromChat(
  messages: { sender_type: string; body: string | null; private?: boolean }[],
  visitor: { name: string | null; email: string | null },
): TicketDraftFromChat {
  const lines = messages
    .filter((message) => message.sender_type === 'visitor' && message.body)
    .map((message) => (message.body ?? '').trim());
  const first = lines[0] ?? '';
  return {
    subject: first.length > SUBJECT_MAX ? `${first.slice(0, SUBJECT_MAX - 1)}…` : first,
    description: lines.join('\n\n').slice(0, DESCRIPTION_MAX),
    customer_name: visitor.name ?? '',
    customer_email: visitor.email ?? '',
  };
}

/**
 * Turning a chat into a ticket (issue 26): the button opens the new-ticket form filled from the
 * chat and linked to it; the tickets made from this chat are listed under the header.
 */
export function CreateTicketFromChat({
  conversationId,
  draft,
  team,
}: {
  conversationId: number;
  draft: () => TicketDraftFromChat;
  team: Member[];
}) {
  const [initial, setInitial] = useState<TicketDraftFromChat | null>(null);
  return (
    <>
      <Button
        variant="default"
        size="sm"
        leftSection={<IconTicket size={16} />}
        onClick={() => setInitial(draft())}
      >
        {t('inbox.action.toTicket')}
      </Button>
      {initial && (
        <CreateTicketModal
          opened
          onClose={() => setInitial(null)}
          team={team}
          initial={initial}
          conversationId={conversationId}
        />
      )}
    </>
  );
}

export function ConversationTickets({ conversationId }: { conversationId: number }) {
  const tickets = useQuery({
    queryKey: keys.tickets.ofConversation(conversationId),
    queryFn: () =>
      unwrap(
        api.GET('/api/agent/tickets', {
          params: { query: { conversation_id: conversationId, per_page: 10 } },
        }),
      ),
  });
  const rows = tickets.data?.data ?? [];
  if (rows.length === 0) return null;
  return (
    <Group
      gap="xs"
      px="md"
      py={6}
      role="note"
      aria-label={t('inbox.tickets.label')}
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
    >
      <IconTicket size={16} aria-hidden />
      <Text size="sm">{t('inbox.tickets.label')}:</Text>
      {rows.map((ticket) => (
        <Group gap={4} key={ticket.id} wrap="nowrap">
          <Anchor component={Link} to={`/tickets/${ticket.id}`} size="sm">
            {ticket.ticket_number} {ticket.subject}
          </Anchor>
          <Badge size="xs" variant="light" color={STATUS_COLOR[ticket.status]}>
            {t(`tickets.status.${ticket.status}`)}
          </Badge>
        </Group>
      ))}
    </Group>
  );
}
