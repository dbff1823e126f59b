import type { InboxView, KbArticleFilters, TicketFilters } from './queries';

/**
 * Every query key of the dashboard, in one place (issue 32, point 3): socket events, mutations
 * and queries reach the same cache entries because they take their keys from here, never from a
 * literal array (ESLint refuses one outside this file: `eslint.config.mjs`).
 *
 * Keys are hierarchical: a resource's `all` is the prefix of every key of that resource, so
 * `invalidateQueries({ queryKey: keys.sites.all })` re-reads the site list, the directory and
 * each open site; `exact: true` touches the list alone. Where a key is deliberately NOT under a
 * prefix (a conversation's thread is not re-read when the lists are), it says so.
 */
export const keys = {
  me: {
    /** `GET /api/agent/me`; the prefix of the agent's own settings below. */
    all: ['me'] as const,
    notifications: ['me', 'notifications'] as const,
    twoFactor: ['me', 'two-factor'] as const,
  },
  organization: {
    all: ['organization'] as const,
  },
  team: {
    /** The members with their email addresses (owners and admins); the prefix of the rest. */
    all: ['team'] as const,
    directory: ['team', 'directory'] as const,
    invitations: ['team', 'invitations'] as const,
  },
  sites: {
    /** The sites with their settings (owners and admins); the prefix of the directory and each site. */
    all: ['sites'] as const,
    directory: ['sites', 'directory'] as const,
    one: (id: number) => ['sites', id] as const,
  },
  conversations: {
    /** Every inbox list. A conversation's thread (`one`) is not under it: lists re-read alone. */
    all: ['conversations'] as const,
    list: (view: InboxView) => ['conversations', view] as const,
    one: (id: number) => ['conversation', id] as const,
  },
  /** Unread visitor messages per conversation: client-side only. */
  unread: {
    all: ['unread'] as const,
  },
  visitorPanel: {
    all: ['visitor-panel'] as const,
    one: (visitorId: number) => ['visitor-panel', visitorId] as const,
  },
  tickets: {
    /** Every ticket list. A ticket's own page (`one`, under `details`) is not under it. */
    all: ['tickets'] as const,
    list: (filters: TicketFilters) => ['tickets', filters] as const,
    ofConversation: (conversationId: number) =>
      ['tickets', 'conversation', conversationId] as const,
    /** Every open ticket and its customer history. */
    details: ['ticket'] as const,
    one: (id: number) => ['ticket', id] as const,
    customer: (id: number) => ['ticket', id, 'customer'] as const,
  },
  labels: {
    all: ['labels'] as const,
  },
  canned: {
    all: ['canned-responses'] as const,
  },
  macros: {
    all: ['macros'] as const,
  },
  search: {
    all: ['search'] as const,
    results: (type: string, q: string) => ['search', type, q] as const,
  },
  reports: {
    all: ['reports'] as const,
    conversations: (query: object) => ['reports', 'conversations', query] as const,
    responseTimes: (query: object) => ['reports', 'response-times', query] as const,
    csat: (query: object) => ['reports', 'csat', query] as const,
  },
  appointments: {
    /** Every appointment list (the page's and the settings'). */
    all: ['appointments'] as const,
    list: (query: object) => ['appointments', query] as const,
  },
  appointmentSettings: {
    all: ['appointment-settings'] as const,
    /** A site's settings, or the organization's default (`undefined`). */
    site: (siteId: number | undefined) => ['appointment-settings', siteId ?? 'default'] as const,
  },
  kb: {
    all: ['kb'] as const,
    articles: ['kb', 'articles'] as const,
    articleList: (filters: KbArticleFilters) => ['kb', 'articles', filters] as const,
    article: (id: number) => ['kb', 'article', id] as const,
    categories: ['kb', 'categories'] as const,
    categoryList: (siteId: number | undefined, locale?: string) =>
      ['kb', 'categories', siteId ?? null, locale ?? null] as const,
  },
  apiKeys: {
    all: ['api-keys'] as const,
  },
  webhooks: {
    /** The endpoint list; the prefix of each endpoint and its delivery log. */
    all: ['webhooks'] as const,
    one: (id: number) => ['webhooks', id] as const,
    deliveries: (id: number) => ['webhooks', id, 'deliveries'] as const,
  },
  emailInboxes: {
    all: ['email-inboxes'] as const,
  },
  mailLog: {
    all: ['mail-log'] as const,
  },
  dataLookup: {
    all: ['data-lookup'] as const,
    site: (siteId: number | undefined) => ['data-lookup', siteId] as const,
  },
  sso: {
    all: ['sso'] as const,
  },
  trustedLogin: {
    all: ['trusted-login'] as const,
  },
  auditLog: {
    all: ['audit-log'] as const,
    list: (query: object) => ['audit-log', query] as const,
  },
  answerBot: {
    all: ['answer-bot'] as const,
    settings: (siteId: number) => ['answer-bot', siteId] as const,
    report: (siteId: number, days: number) => ['answer-bot', siteId, 'report', days] as const,
    log: (siteId: number, page: number) => ['answer-bot', siteId, 'log', page] as const,
  },
  botReplies: {
    all: ['bot-replies'] as const,
    site: (siteId: number) => ['bot-replies', siteId] as const,
    list: (siteId: number, q: string) => ['bot-replies', siteId, q] as const,
  },
  contentImport: {
    all: ['content-import'] as const,
    site: (siteId: number) => ['content-import', siteId] as const,
  },
  /** The platform console's (`features/admin`). */
  platform: {
    all: ['platform'] as const,
    organizations: ['platform', 'organizations'] as const,
    organizationPage: (q: string, page: number) => ['platform', 'organizations', q, page] as const,
    queues: ['platform', 'queues'] as const,
    instances: ['platform', 'instances'] as const,
    failingWebhooks: ['platform', 'webhooks', 'failing'] as const,
    failedMails: ['platform', 'mail', 'failed'] as const,
  },
};
