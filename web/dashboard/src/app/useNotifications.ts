import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { type Conversation, useUnread } from '../api/queries';
import { keys } from '../api/keys';
import { agentChannel, type TicketPush } from '../api/socket';
import { t } from '../i18n';
import {
  askNotificationPermission,
  browserNotification,
  chime,
  setTitleCount,
  unlockSound,
} from './notify';
import { ticketAlerts } from './ticket-alerts';

/**
 * Sound, browser notification and the tab title's count, for a new waiting chat and for a
 * visitor's message in one of the agent's own chats.
 */
export function useNotifications(agentId: number | undefined) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const unread = useUnread();

  useEffect(() => {
    unlockSound();
    askNotificationPermission();
  }, []);

  useEffect(() => {
    if (agentId === undefined) return;
    return agentChannel.on('message.created', (message) => {
      if (message.sender_type !== 'visitor') return;
      const known = findConversation(queryClient, message.conversation_id);
      if (!concernsAgent(known, agentId)) return;
      const waiting = !known || known.assigned_agent_id === null;
      chime();
      const name = known?.visitor.name ?? t('app.visitor');
      browserNotification(
        waiting ? t('app.notify.waiting') : t('app.notify.message', { name }),
        message.body,
        () => void navigate(`/inbox/${message.conversation_id}`),
      );
    });
  }, [agentId, queryClient, navigate]);

  // A ticket someone else filed or changed that is nobody's yet or this agent's: the same chime,
  // a notification while the tab is hidden, and a count in the title until it is opened.
  useEffect(() => {
    if (agentId === undefined) return;
    const onTicket = (push: TicketPush) => {
      if (!ticketConcernsAgent(push, agentId)) return;
      ticketAlerts.add(push.ticket_id);
      chime();
      browserNotification(
        push.change === 'created'
          ? t('app.notify.ticketNew', { number: push.ticket_number })
          : t('app.notify.ticketChanged', { number: push.ticket_number }),
        push.subject,
        () => void navigate(`/tickets/${push.ticket_id}`),
      );
    };
    const offCreated = agentChannel.on('ticket.created', onTicket);
    const offUpdated = agentChannel.on('ticket.updated', onTicket);
    return () => {
      offCreated();
      offUpdated();
    };
  }, [agentId, navigate]);

  // Only what waits for this agent: new waiting chats and its own chats, not teammates' chats.
  // Counted again when a conversation list loads: a chat unknown while its list was on its way
  // counts as waiting until the list says whose it is.
  useEffect(() => {
    const recount = () =>
      setTitleCount(
        Object.entries(unread ?? {}).reduce(
          (sum, [id, n]) =>
            concernsAgent(findConversation(queryClient, Number(id)), agentId) ? sum + n : sum,
          0,
        ),
      );
    recount();
    return queryClient.getQueryCache().subscribe((event) => {
      const key = (event.query as { queryKey: readonly unknown[] }).queryKey;
      if (event.type === 'updated' && key[0] === keys.conversations.all[0]) recount();
    });
  }, [unread, agentId, queryClient]);
}

/** Not the agent's own doing, and a new ticket nobody holds or one the agent holds. */
function ticketConcernsAgent(push: TicketPush, agentId: number): boolean {
  if (push.by_user_id === agentId) return false;
  if (push.assigned_agent_id === agentId) return true;
  return push.change === 'created' && push.assigned_agent_id === null;
}

/** A new waiting chat nobody has taken (or one not loaded yet), or one of the agent's own. */
function concernsAgent(known: Conversation | undefined, agentId: number | undefined): boolean {
  if (!known) return true;
  if (known.status === 'waiting' && known.assigned_agent_id === null) return true;
  return agentId !== undefined && known.assigned_agent_id === agentId;
}

function findConversation(
  queryClient: ReturnType<typeof useQueryClient>,
  id: number,
): Conversation | undefined {
  for (const [, list] of queryClient.getQueriesData<Conversation[]>({
    queryKey: keys.conversations.all,
  })) {
    const found = list?.find((c) => c.id === id);
    if (found) return found;
  }
  return undefined;
}
