import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { Role } from '../../common/auth/auth.types';
import { pageOf, query, sql } from '../../database/sql';

export interface InvitationRow {
  id: string;
  organization_id: string;
  email: string;
  name: string | null;
  role: Role;
  invited_by_user_id: string | null;
  invited_by_name: string | null;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

/** Invitations by email (issue 28): the token itself is never stored, only its SHA-256. */
@Injectable()
export class InvitationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A new invitation; a pending one to the same address in the organization is replaced. */
  async insert(
    manager: EntityManager,
    organizationId: string,
    invitation: {
      email: string;
      name: string | null;
      role: Role;
      tokenHash: Buffer;
      invitedBy: string;
      days: number;
    },
  ): Promise<InvitationRow> {
    await sql(
      manager,
      query`UPDATE invitations SET revoked_at = now()
        WHERE organization_id = $1 AND lower(email) = lower($2)
          AND accepted_at IS NULL AND revoked_at IS NULL`,
      [organizationId, invitation.email],
    );
    const rows = await sql(
      manager,
      query<{ id: string }>`INSERT INTO invitations
         (organization_id, email, name, role, token_hash, invited_by_user_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + $7 * interval '1 day') RETURNING id`,
      [
        organizationId,
        invitation.email,
        invitation.name,
        invitation.role,
        invitation.tokenHash,
        invitation.invitedBy,
        invitation.days,
      ],
    );
    const row = await this.find(manager, organizationId, rows[0].id);
    return row!;
  }

  async find(
    executor: EntityManager | undefined,
    organizationId: string,
    id: string,
  ): Promise<InvitationRow | undefined> {
    const rows = await sql(
      executor ?? this.dataSource,
      query<InvitationRow>`SELECT i.id, i.organization_id, i.email, i.name, i.role, i.invited_by_user_id,
  (SELECT u.name FROM users u WHERE u.id = i.invited_by_user_id) AS invited_by_name,
  i.expires_at, i.accepted_at, i.revoked_at, i.created_at FROM invitations i WHERE i.organization_id = $1 AND i.id = $2`,
      [organizationId, id],
    );
    return rows[0];
  }

  /** The invitations still open (not accepted, revoked or expired), newest first. */
  pending(organizationId: string, page: { perPage: number; offset: number }) {
    return pageOf(
      this.dataSource,
      {
        rows: query<InvitationRow>`SELECT i.id, i.organization_id, i.email, i.name, i.role, i.invited_by_user_id,
  (SELECT u.name FROM users u WHERE u.id = i.invited_by_user_id) AS invited_by_name,
  i.expires_at, i.accepted_at, i.revoked_at, i.created_at FROM invitations i
          WHERE i.organization_id = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL
                AND i.expires_at > now()
          ORDER BY i.id DESC LIMIT $2 OFFSET $3`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM invitations i
          WHERE i.organization_id = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL
                AND i.expires_at > now()`,
      },
      [organizationId],
      page,
    );
  }

  /** Revokes an open invitation; false when there is none by that id. */
  async revoke(organizationId: string, id: string, manager?: EntityManager): Promise<boolean> {
    const rows = await sql(
      manager ?? this.dataSource,
      query<{ id: string }>`UPDATE invitations SET revoked_at = now()
        WHERE organization_id = $1 AND id = $2 AND accepted_at IS NULL AND revoked_at IS NULL
        RETURNING id`,
      [organizationId, id],
    );
    return rows.length > 0;
  }

  /**
   * The invitation a token names, locked until the caller's transaction ends (one acceptance at a
   * time): the token is the capability, found before any organization is known.
   */
  async lockByToken(manager: EntityManager, tokenHash: Buffer): Promise<InvitationRow | undefined> {
    const rows = await sql(
      manager,
      query<InvitationRow>`SELECT i.id, i.organization_id, i.email, i.name, i.role, i.invited_by_user_id,
  (SELECT u.name FROM users u WHERE u.id = i.invited_by_user_id) AS invited_by_name,
  i.expires_at, i.accepted_at, i.revoked_at, i.created_at FROM invitations i WHERE i.token_hash = $1 FOR UPDATE OF i`,
      [tokenHash],
    );
    return rows[0];
  }

  async markAccepted(
    manager: EntityManager,
    organizationId: string,
    id: string,
    userId: string,
  ): Promise<void> {
    await sql(
      manager,
      query`UPDATE invitations SET accepted_at = now(), accepted_user_id = $3
        WHERE organization_id = $1 AND id = $2`,
      [organizationId, id, userId],
    );
  }
}
