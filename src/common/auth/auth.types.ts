import type { Request } from 'express';

/** The seven abilities of the public API (spec section 5). */
export const ABILITIES = [
  'conversations:read',
  'conversations:write',
  'visitors:read',
  'tickets:read',
  'tickets:write',
  'agents:read',
  'sites:read',
] as const;
export type Ability = (typeof ABILITIES)[number];

export const ROLES = ['owner', 'admin', 'agent'] as const;
export type Role = (typeof ROLES)[number];

/** How a route is authenticated; every route declares exactly one (deny by default). */
export type AuthDeclaration =
  | { kind: 'public' }
  | { kind: 'agent'; role: 'agent' | 'admin'; multipart?: boolean }
  | { kind: 'api_key'; ability?: Ability }
  | { kind: 'widget'; visitor: boolean; sessionOnly?: boolean }
  | { kind: 'platform_admin' };

export interface AgentPrincipal {
  userId: string;
  organizationId: string;
  role: Role;
  sessionId: string;
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
