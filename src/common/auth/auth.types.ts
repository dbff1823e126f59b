import type { Request } from 'express';

/** The seven abilities of the public API (spec section 5) and the knowledge base's two (DESIGN 10). */
export type Ability =
  | 'conversations:read'
  | 'conversations:write'
  | 'visitors:read'
  | 'tickets:read'
  | 'tickets:write'
  | 'agents:read'
  | 'sites:read'
  | 'kb:read'
  | 'kb:write';
export const ABILITIES: readonly Ability[] = [
  'conversations:read',
  'conversations:write',
  'visitors:read',
  'tickets:read',
  'tickets:write',
  'agents:read',
  'sites:read',
  'kb:read',
  'kb:write',
];

export type Role = 'owner' | 'admin' | 'agent';
export const ROLES: readonly Role[] = ['owner', 'admin', 'agent'];

/**
 * How a login came to be (`logins.origin`): its person signed up, an owner or administrator made
 * it (`POST /api/agent/team`), a newcomer accepted an invitation, an organization's single sign-on
 * made it, or the operator's `org:create` did. Only a `signup` login is a platform administrator
 * by its address (DESIGN section 13).
 */
export type LoginOrigin = 'signup' | 'team' | 'invitation' | 'sso' | 'cli';

/** How a route is authenticated; every route declares exactly one (deny by default). */
export type AuthDeclaration =
  | { kind: 'public' }
  | {
      kind: 'agent';
      role: 'agent' | 'admin';
      multipart?: boolean;
      /** Answers a member whose organization requires two-factor they have not set up yet. */
      twoFactorSetup?: boolean;
    }
  | { kind: 'api_key'; ability?: Ability }
  | { kind: 'widget'; visitor: boolean; sessionOnly?: boolean }
  | { kind: 'platform_admin' };

export interface AgentPrincipal {
  /** The membership (`users` row): what every feature knows as the agent. */
  userId: string;
  /** The login (address and password), shared by the memberships of one person. */
  loginId: string;
  organizationId: string;
  role: Role;
  sessionId: string;
  /**
   * The organization requires two-factor authentication and this login has none yet: only the
   * routes that set it up answer (`Agent({ twoFactorSetup: true })`).
   */
  twoFactorMissing?: boolean;
  /** Started by single sign-on: confined to its organization (no switching, no login-wide changes). */
  viaSso?: boolean;
  /** When the session ends if nothing changes (idle expiry or absolute lifetime). */
  sessionEndsAt?: Date;
}

export interface ApiKeyPrincipal {
  id: string;
  organizationId: string;
  name: string;
  keyPrefix: string;
  abilities: Ability[];
  createdByUserId: string | null;
  lastUsedAt: Date | null;
}

/**
 * The site a widget request is for, found from its `widget_key` or the session token, and the
 * visitor when the route needs one (from `visitor_uid` or the session token).
 */
export interface WidgetPrincipal {
  siteId: string;
  organizationId: string;
  allowedDomains: string[];
  visitorId?: string;
}

/** A widget principal on a route declared with `@Widget({ visitor: true })`. */
export type VisitorPrincipal = WidgetPrincipal & { visitorId: string };

export interface AuthenticatedRequest extends Request {
  widget?: WidgetPrincipal;
  agent?: AgentPrincipal;
  apiKey?: ApiKeyPrincipal;
}

export const AUTH_METADATA = 'auth:declaration';
