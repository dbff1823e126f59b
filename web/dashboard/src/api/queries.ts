import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Schemas } from '../../../shared/api/client';
import { api, unwrap } from './client';
import { keys } from './keys';

export type Agent = Schemas['AgentDto'];
/** A member as every member sees them: name, role and status (the team directory). */
export type Member = Schemas['TeamMemberDto'];
/** A site as every member sees it: its name. */
export type SiteName = Schemas['SiteNameDto'];
export type Conversation = Schemas['InboxConversationDto'];
export type ConversationDetail = Schemas['AgentConversationDetailResponseDto']['data'];
export type Label = Schemas['LabelDto'];
export type SearchHit = Schemas['SearchHitDto'];
export type Message = Schemas['MessageDto'];
export type VisitorPanelData = Schemas['VisitorPanelDto'];
export type Attachment = Schemas['AttachmentDto'];
export type CannedResponse = Schemas['CannedResponseDto'];
export type ChatMessage = Schemas['ChatMessageDto'];
export type Ticket = Schemas['AgentTicketDto'];
export type Site = Schemas['SiteDto'];
export type KbArticleHit = Schemas['ArticleHitDto'];
export type KbArticle = Schemas['ArticleDto'];
export type KbCategory = Schemas['CategoryDto'];

/** The knowledge base's article list filters (DESIGN section 10). */
export interface KbArticleFilters {
  site_id?: number;
  locale?: KbArticle['locale'];
  status?: KbArticle['status'];
  category_id?: number;
  q?: string;
  page?: number;
}
export type Macro = Schemas['MacroDto'];
export type MacroAction = Schemas['MacroActionDto'];

/** An inbox view: which conversations the list shows. */
export type InboxView =
  | { kind: 'mine' }
  | { kind: 'unassigned' }
  | { kind: 'all' }
  | { kind: 'missed' }
  | { kind: 'closed' }
  | { kind: 'snoozed' }
  | { kind: 'site'; siteId: number }
  | { kind: 'label'; label: string };

export interface TicketFilters {
  status?: Ticket['status'];
  priority?: Ticket['priority'];
  assigned_agent_id?: number;
  q?: string;
  page?: number;
}

export function useMe() {
  return useQuery({
    queryKey: keys.me.all,
    queryFn: () => unwrap(api.GET('/api/agent/me')),
    staleTime: 60_000,
  });
}

/** The rows a page of the tickets or articles table shows (the spec's default for lists). */
export const LIST_PAGE_SIZE = 50;

/** The most a page of an agent list carries (DESIGN section 3). */
const PAGE_MAX = 100;

/**
 * Every item of a paged agent list, page after page: the selectors and settings lists need the
 * whole of a list (teammates, sites, labels, canned responses, API keys), not its first page.
 */
export async function allPages<T>(
  fetchPage: (query: { page: number; per_page: number }) => Promise<{
    data: T[];
    last_page: number;
  }>,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await fetchPage({ page, per_page: PAGE_MAX });
    items.push(...answer.data);
    if (page >= answer.last_page) return items;
  }
}

/** The team directory, readable by every member (names who holds a chat, wrote a message...). */
export function useTeamDirectory() {
  return useQuery({
    queryKey: keys.team.directory,
    queryFn: () =>
      allPages((query) => unwrap(api.GET('/api/agent/team/directory', { params: { query } }))),
    staleTime: 60_000,
  });
}

/** The sites' names, readable by every member. */
export function useSiteNames() {
  return useQuery({
    queryKey: keys.sites.directory,
    queryFn: () =>
      allPages((query) => unwrap(api.GET('/api/agent/sites/directory', { params: { query } }))),
    staleTime: 60_000,
  });
}

/** The members with their email addresses: owners and admins only (the team settings). */
export function useTeam(enabled = true) {
  return useQuery({
    queryKey: keys.team.all,
    enabled,
    queryFn: () => allPages((query) => unwrap(api.GET('/api/agent/team', { params: { query } }))),
    staleTime: 60_000,
  });
}

/** The sites with their settings and widget keys: owners and admins only. */
export function useSites(enabled = true) {
  return useQuery({
    queryKey: keys.sites.all,
    enabled,
    queryFn: () => allPages((query) => unwrap(api.GET('/api/agent/sites', { params: { query } }))),
    staleTime: 60_000,
  });
}

function viewQuery(view: InboxView) {
  switch (view.kind) {
    case 'mine':
      return { assigned_agent_id: 'me' };
    case 'unassigned':
      return { assigned_agent_id: 'none' };
    case 'all':
      return {};
    case 'missed':
      return { status: 'missed' as const };
    case 'closed':
      return { status: 'closed' as const };
    case 'snoozed':
      return { snoozed: true };
    case 'site':
      return { site_id: view.siteId };
    case 'label':
      return { label: view.label };
  }
}

export function useConversations(view: InboxView) {
  return useQuery({
    queryKey: keys.conversations.list(view),
    queryFn: async () =>
      (
        await unwrap(
          api.GET('/api/agent/conversations', {
            params: { query: { per_page: 100, sort: 'activity', ...viewQuery(view) } },
          }),
        )
      ).data,
  });
}

/** How many of a conversation's latest messages opening it loads; older ones come on scrolling. */
export const HISTORY_PAGE = 50;
/** How many older messages `before_id` answers at most (the service's limit). */
const BEFORE_PAGE = 200;

export function useConversation(id: number | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: keys.conversations.one(id ?? 0),
    enabled: id !== undefined,
    queryFn: async () => {
      const fresh = (
        await unwrap(
          api.GET('/api/agent/conversations/{conversation}', {
            params: { path: { conversation: id! }, query: { message_limit: HISTORY_PAGE } },
          }),
        )
      ).data;
      // A refresh keeps the older pages already scrolled back to (the thread does not jump).
      const old = queryClient.getQueryData<ConversationDetail>(keys.conversations.one(id!));
      const first = fresh.messages[0]?.id;
      if (!old || first === undefined || !fresh.has_earlier_messages) return fresh;
      const earlier = old.messages.filter((m) => m.id < first);
      if (!earlier.length) return fresh;
      return {
        ...fresh,
        messages: [...earlier, ...fresh.messages],
        has_earlier_messages: old.has_earlier_messages,
      };
    },
  });
}

/**
 * Loads the page of messages before the oldest one shown into the conversation's cache entry;
 * `beforeShowing` runs just before they are put in (the thread keeps its scroll position).
 */
export async function loadEarlierMessages(
  queryClient: QueryClient,
  id: number,
  beforeId: number,
  beforeShowing: () => void,
): Promise<void> {
  const older = (
    await unwrap(
      api.GET('/api/agent/conversations/{conversation}/messages', {
        params: { path: { conversation: id }, query: { before_id: beforeId } },
      }),
    )
  ).data.map(({ conversation_id: _, ...message }) => message);
  beforeShowing();
  queryClient.setQueryData<ConversationDetail>(keys.conversations.one(id), (old) => {
    if (!old) return old;
    const known = new Set(old.messages.map((m) => m.id));
    return {
      ...old,
      messages: [...older.filter((m) => !known.has(m.id)), ...old.messages],
      has_earlier_messages: older.length >= BEFORE_PAGE,
    };
  });
}

/** Unread visitor messages per conversation: client-side only, kept in the query cache. */
export type UnreadCounts = Record<number, number>;

export function useUnread() {
  return useQuery<UnreadCounts>({
    queryKey: keys.unread.all,
    queryFn: () => ({}),
    staleTime: Infinity,
    gcTime: Infinity,
  }).data;
}

export function useLabels() {
  return useQuery({
    queryKey: keys.labels.all,
    queryFn: () => allPages((query) => unwrap(api.GET('/api/agent/labels', { params: { query } }))),
    staleTime: 60_000,
  });
}

/** The organization's macros by name: every member runs them, owners and admins keep them. */
export function useMacros(active = true) {
  return useQuery({
    queryKey: keys.macros.all,
    enabled: active,
    queryFn: () => allPages((query) => unwrap(api.GET('/api/agent/macros', { params: { query } }))),
    staleTime: 30_000,
  });
}

/** Asked for when the agent starts a `/shortcut` (and again then, once 10 s old). */
export function useCannedResponses(active = true) {
  return useQuery({
    queryKey: keys.canned.all,
    enabled: active,
    queryFn: () =>
      allPages((query) => unwrap(api.GET('/api/agent/canned-responses', { params: { query } }))),
    staleTime: 10_000,
  });
}
