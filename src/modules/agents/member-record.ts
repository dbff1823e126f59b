import type { Role } from '../../common/auth/auth.types';
import type { AgentStatus, LoginRow, MembershipRow, UserRow } from './agents.repository';

export type { AgentStatus };

/**
 * An agent account as the other features see it (issue 32, point 7): what `AgentsService`
 * answers, mapped once from the table's rows here, so no feature but this one depends on
 * `UserRow`, `LoginRow` or `MembershipRow`.
 */
export interface MemberRecord {
  id: string;
  organizationId: string;
  name: string;
  email: string;
  /** The login (address and password) this membership belongs to. */
  loginId: string;
  /** The unguessable part of the avatar's address; null without one. */
  avatarToken: string | null;
  role: Role;
  status: AgentStatus;
  lastSeenAt: Date | null;
  createdAt: Date;
}

/** What belongs to a person rather than to one membership: the address and the password. */
export interface LoginRecord {
  id: string;
  email: string;
  /** Auth checks a password against it; nothing else reads it. */
  passwordHash: string;
  emailVerifiedAt: Date | null;
  /** Set while two-factor authentication is on. */
  twoFactorEnabledAt: Date | null;
}

/** A login's membership, with its organization's name (the organization switcher). */
export interface MembershipRecord {
  userId: string;
  organizationId: string;
  organizationName: string;
  role: Role;
}

export const toMemberRecord = (row: UserRow): MemberRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  email: row.email,
  loginId: row.login_id,
  avatarToken: row.avatar_token,
  role: row.role,
  status: row.status,
  lastSeenAt: row.last_seen_at,
  createdAt: row.created_at,
});

export const toLoginRecord = (row: LoginRow): LoginRecord => ({
  id: row.id,
  email: row.email,
  passwordHash: row.password_hash,
  emailVerifiedAt: row.email_verified_at,
  twoFactorEnabledAt: row.two_factor_enabled_at,
});

export const toMembershipRecord = (row: MembershipRow): MembershipRecord => ({
  userId: row.user_id,
  organizationId: row.organization_id,
  organizationName: row.organization_name,
  role: row.role,
});
