import { useQuery } from '@tanstack/react-query';
import type { Schemas } from '../../../shared/api/client';
import { api, unwrap } from './client';

export type Agent = Schemas['AgentDto'];
export type Conversation = Schemas['ConversationDto'];
export type ConversationDetail = Schemas['ConversationDetailDto'];
export type Message = Schemas['MessageDto'];
export type ChatMessage = Schemas['ChatMessageDto'];
export type Ticket = Schemas['AgentTicketDto'];
export type Site = Schemas['SiteDto'];

/** An inbox view: which conversations the list shows. */
export type InboxView =
  | { kind: 'mine' }
  | { kind: 'unassigned' }
  | { kind: 'all' }
  | { kind: 'missed' }
  | { kind: 'closed' }
  | { kind: 'site'; siteId: number };

export interface TicketFilters {
  status?: Ticket['status'];
  priority?: Ticket['priority'];
  assigned_agent_id?: number;
}

/** Every query key in one place, so socket events and mutations reach the same cache entries. */
export const keys = {
  me: ['me'] as const,
  team: ['team'] as const,
  sites: ['sites'] as const,
  conversations: ['conversations'] as const,
  conversationList: (view: InboxView, agentId: number | undefined) =>
    ['conversations', view, agentId] as const,
  conversation: (id: number) => ['conversation', id] as const,
  unread: ['unread'] as const,
  tickets: ['tickets'] as const,
  ticketList: (filters: TicketFilters) => ['tickets', filters] as const,
  ticket: (id: number) => ['ticket', id] as const,
};

export function useMe() {
  return useQuery({
    queryKey: keys.me,
    queryFn: () => unwrap(api.GET('/api/agent/me')),
    staleTime: 60_000,
  });
}

export function useTeam() {
  return useQuery({
    queryKey: keys.team,
    queryFn: async () => (await unwrap(api.GET('/api/agent/team'))).data,
    staleTime: 60_000,
  });
}

export function useSites() {
  return useQuery({
    queryKey: keys.sites,
    queryFn: async () => (await unwrap(api.GET('/api/agent/sites'))).data,
    staleTime: 60_000,
  });
}

function viewQuery(view: InboxView, agentId: number | undefined) {
  switch (view.kind) {
    case 'mine':
      return { assigned_agent_id: agentId };
    case 'unassigned':
      return { unassigned: true };
    case 'all':
      return {};
    case 'missed':
      return { status: 'missed' as const };
    case 'closed':
      return { status: 'closed' as const };
    case 'site':
      return { site_id: view.siteId };
  }
}

export function useConversations(view: InboxView, agentId: number | undefined) {
  return useQuery({
    queryKey: keys.conversationList(view, agentId),
    enabled: view.kind !== 'mine' || agentId !== undefined,
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/agent/conversations', {
            params: { query: { per_page: 100, ...viewQuery(view, agentId) } },
          }),
        )
      ).data,
  });
}

export function useConversation(id: number | undefined) {
  return useQuery({
    queryKey: keys.conversation(id ?? 0),
    enabled: id !== undefined,
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/agent/conversations/{conversation}', {
            params: { path: { conversation: id! } },
          }),
        )
      ).data,
  });
}

/** Unread visitor messages per conversation: client-side only, kept in the query cache. */
export type UnreadCounts = Record<number, number>;

export function useUnread() {
  return useQuery<UnreadCounts>({
    queryKey: keys.unread,
    queryFn: () => ({}),
    staleTime: Infinity,
    gcTime: Infinity,
  }).data;
}
