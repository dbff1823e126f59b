import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { handTyped, query, sql, type SqlExecutor } from '../../database/sql';

/** The role a member joining through SSO gets (`sso_settings.default_role`). */
export type SsoDefaultRole = 'admin' | 'agent';

export interface SsoSettingsRow {
  organization_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  allowed_domains: string[];
  default_role: SsoDefaultRole;
  enforce: boolean;
  updated_at: Date;
}

export interface SsoAttemptRow {
  organization_id: string;
  browser_hash: Buffer;
  nonce: string;
  verifier_sealed: string;
}

/** An organization's single sign-on settings (every statement names it) and the attempts in flight. */
@Injectable()
export class SsoRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(
    organizationId: string,
    executor: SqlExecutor = this.dataSource,
    lock = false,
  ): Promise<SsoSettingsRow | undefined> {
    const rows = await sql(
      executor,
      lock
        ? handTyped<SsoSettingsRow>`SELECT organization_id::text AS organization_id, issuer, client_id, client_secret_sealed,
              allowed_domains, default_role, enforce, updated_at
         FROM sso_settings WHERE organization_id = $1 FOR UPDATE`
        : handTyped<SsoSettingsRow>`SELECT organization_id::text AS organization_id, issuer, client_id, client_secret_sealed,
              allowed_domains, default_role, enforce, updated_at
         FROM sso_settings WHERE organization_id = $1`,
      [organizationId],
    );
    return rows[0];
  }

  async upsert(
    manager: EntityManager,
    organizationId: string,
    value: Omit<SsoSettingsRow, 'organization_id' | 'updated_at'>,
  ): Promise<void> {
    await sql(
      manager,
      query`INSERT INTO sso_settings
         (organization_id, issuer, client_id, client_secret_sealed, allowed_domains, default_role, enforce)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (organization_id) DO UPDATE SET
         issuer = EXCLUDED.issuer, client_id = EXCLUDED.client_id,
         client_secret_sealed = EXCLUDED.client_secret_sealed,
         allowed_domains = EXCLUDED.allowed_domains, default_role = EXCLUDED.default_role,
         enforce = EXCLUDED.enforce, updated_at = now()`,
      [
        organizationId,
        value.issuer,
        value.client_id,
        value.client_secret_sealed,
        value.allowed_domains,
        value.default_role,
        value.enforce,
      ],
    );
  }

  /** Whether the organization refuses password logins of its non-owner members. */
  async enforced(organizationId: string): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{ enforce: boolean }>`SELECT enforce FROM sso_settings WHERE organization_id = $1`,
      [organizationId],
    );
    return rows[0]?.enforce === true;
  }

  /** A new attempt; expired ones are swept on the way. */
  async insertAttempt(
    organizationId: string,
    attempt: { stateHash: Buffer; browserHash: Buffer; nonce: string; verifierSealed: string },
    ttlSeconds: number,
  ): Promise<void> {
    await sql(this.dataSource, query`DELETE FROM sso_attempts WHERE expires_at < now()`);
    await sql(
      this.dataSource,
      query`INSERT INTO sso_attempts
         (state_hash, browser_hash, organization_id, nonce, verifier_sealed, expires_at)
       VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
      [
        attempt.stateHash,
        attempt.browserHash,
        organizationId,
        attempt.nonce,
        attempt.verifierSealed,
        ttlSeconds,
      ],
    );
  }

  /** Takes the attempt of a `state` (deleted: used once), if it has not expired. */
  async takeAttempt(stateHash: Buffer): Promise<SsoAttemptRow | undefined> {
    const rows = await sql(
      this.dataSource,
      handTyped<SsoAttemptRow & { expired: boolean }>`DELETE FROM sso_attempts WHERE state_hash = $1
       RETURNING organization_id::text AS organization_id, browser_hash, nonce, verifier_sealed,
                 expires_at < now() AS expired`,
      [stateHash],
    );
    const row = rows[0];
    return row && !row.expired ? row : undefined;
  }
}
