import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { type Conversation, keys, useUnread } from '../api/queries';
import { agentChannel } from '../api/socket';
import { t } from '../i18n';
import {
  askNotificationPermission,
  browserNotification,
  chime,
  setTitleCount,
  unlockSound,
} from './notify';

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
      if (event.type === 'updated' && key[0] === keys.conversations[0]) recount();
    });
  }, [unread, agentId, queryClient]);
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
    queryKey: keys.conversations,
  })) {
    const found = list?.find((c) => c.id === id);
    if (found) return found;
  }
  return undefined;
}
