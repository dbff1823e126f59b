import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { query, sql, type SqlExecutor } from '../../database/sql';

export type LoginMethod = 'identifier' | 'otp' | 'trusted';

export interface AccountLoginRow {
  visitor_id: string;
  site_id: string;
  account_key: string;
  account_source: string;
  identifier: string;
  method: LoginMethod;
  verified_at: Date;
}

export interface LoginCodeRow {
  id: string;
  visitor_id: string;
  account_key: string | null;
  account_source: string | null;
  identifier: string;
  code_salt: Buffer;
  code_hash: Buffer;
  attempts: number;
  expires_at: Date;
}

export interface TrustedLoginRow {
  enabled: boolean;
  secret_hash: Buffer | null;
  secret_prefix: string | null;
}

/** Logins, one-time codes and trusted-login secrets. */
@Injectable()
export class AccountLoginRepository {
  constructor(private readonly dataSource: DataSource) {}

  async login(organizationId: string, visitorId: string): Promise<AccountLoginRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<AccountLoginRow>`SELECT visitor_id, site_id, account_key, account_source, identifier, method, verified_at FROM visitor_account_logins
       WHERE organization_id = $1 AND visitor_id = $2 AND expires_at > now()`,
      [organizationId, visitorId],
    );
    return rows[0];
  }

  async saveLogin(
    manager: EntityManager,
    organizationId: string,
    login: Omit<AccountLoginRow, 'verified_at'> & { lifetimeSeconds: number },
  ): Promise<AccountLoginRow> {
    const rows = await sql(
      manager,
      query<AccountLoginRow>`INSERT INTO visitor_account_logins (visitor_id, organization_id, site_id, account_key,
         account_source, identifier, method, verified_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now() + make_interval(secs => $8))
       ON CONFLICT (visitor_id) DO UPDATE SET account_key = EXCLUDED.account_key,
         account_source = EXCLUDED.account_source, identifier = EXCLUDED.identifier,
         method = EXCLUDED.method, verified_at = EXCLUDED.verified_at,
         expires_at = EXCLUDED.expires_at
       RETURNING visitor_id, site_id, account_key, account_source, identifier, method, verified_at`,
      [
        login.visitor_id,
        organizationId,
        login.site_id,
        login.account_key,
        login.account_source,
        login.identifier,
        login.method,
        login.lifetimeSeconds,
      ],
    );
    return rows[0];
  }

  async deleteLogin(manager: EntityManager, organizationId: string, visitorId: string) {
    await sql(
      manager,
      query`DELETE FROM visitor_account_logins WHERE organization_id = $1 AND visitor_id = $2`,
      [organizationId, visitorId],
    );
  }

  /** Serializes code requests and checks of one visitor until the transaction ends. */
  async lockVisitorCodes(manager: EntityManager, visitorId: string): Promise<void> {
    await sql(
      manager,
      query<{
        pg_advisory_xact_lock: void | null;
      }>`SELECT pg_advisory_xact_lock(7007, hashint8($1::bigint))`,
      [visitorId],
    );
  }

  /** The creation times of the visitor's codes in the last hour, oldest first. */
  async recentCodeTimes(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
  ): Promise<Date[]> {
    const rows = await sql(
      manager,
      query<{ created_at: Date }>`SELECT created_at FROM visitor_login_codes
       WHERE organization_id = $1 AND visitor_id = $2 AND created_at > now() - interval '1 hour'
       ORDER BY created_at`,
      [organizationId, visitorId],
    );
    return rows.map((row) => row.created_at);
  }

  /** How many codes the account got in the last hour, over every visitor. */
  async recentAccountCodes(
    manager: EntityManager,
    scope: { organizationId: string; siteId: string },
    accountKey: string,
  ) {
    const rows = await sql(
      manager,
      query<{ count: string }>`SELECT count(*) AS count FROM visitor_login_codes
       WHERE organization_id = $1 AND site_id = $2 AND account_key = $3
         AND created_at > now() - interval '1 hour'`,
      [scope.organizationId, scope.siteId, accountKey],
    );
    return Number(rows[0].count);
  }

  /** Wrong codes typed for an account in the last day, over all its codes and visitors. */
  async wrongTriesToday(
    manager: EntityManager,
    scope: { organizationId: string; siteId: string },
    accountKey: string,
  ): Promise<number> {
    const rows = await sql(
      manager,
      query<{ tries: string | null }>`SELECT sum(attempts) AS tries FROM visitor_login_codes
       WHERE organization_id = $1 AND site_id = $2 AND account_key = $3
         AND created_at > now() - interval '1 day'`,
      [scope.organizationId, scope.siteId, accountKey],
    );
    return Number(rows[0].tries ?? 0);
  }

  /** Ends every code of the visitor still usable (a new code replaces them; a logout). */
  async burnCodes(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
  ): Promise<void> {
    await sql(
      manager,
      query`UPDATE visitor_login_codes SET burned_at = now()
       WHERE organization_id = $2 AND visitor_id = $1 AND used_at IS NULL AND burned_at IS NULL`,
      [visitorId, organizationId],
    );
  }

  async insertCode(
    manager: EntityManager,
    organizationId: string,
    code: Omit<LoginCodeRow, 'id' | 'attempts' | 'expires_at'> & {
      siteId: string;
      lifetimeSeconds: number;
    },
  ): Promise<LoginCodeRow> {
    const rows = await sql(
      manager,
      query<LoginCodeRow>`INSERT INTO visitor_login_codes (organization_id, site_id, visitor_id, account_key,
         account_source, identifier, code_salt, code_hash, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9))
       RETURNING id, visitor_id, account_key, account_source, identifier, code_salt, code_hash, attempts, expires_at`,
      [
        organizationId,
        code.siteId,
        code.visitor_id,
        code.account_key,
        code.account_source,
        code.identifier,
        code.code_salt,
        code.code_hash,
        code.lifetimeSeconds,
      ],
    );
    return rows[0];
  }

  /** The visitor's newest code that is neither used nor burned, locked; expired ones too. */
  async lockCurrentCode(
    manager: EntityManager,
    organizationId: string,
    visitorId: string,
  ): Promise<(LoginCodeRow & { expired: boolean }) | undefined> {
    const rows = await sql(
      manager,
      query<
        LoginCodeRow & { expired: boolean }
      >`SELECT id, visitor_id, account_key, account_source, identifier, code_salt, code_hash, attempts, expires_at, COALESCE(expires_at <= now(), true) AS expired FROM visitor_login_codes
       WHERE organization_id = $1 AND visitor_id = $2 AND used_at IS NULL AND burned_at IS NULL
       ORDER BY created_at DESC, id DESC LIMIT 1 FOR UPDATE`,
      [organizationId, visitorId],
    );
    return rows[0];
  }

  /** A wrong try: counted, and the code burned at the limit. Answers the tries made. */
  async recordWrongTry(
    manager: EntityManager,
    organizationId: string,
    codeId: string,
    limit: number,
  ): Promise<number> {
    const rows = await sql(
      manager,
      query<{ attempts: number }>`UPDATE visitor_login_codes SET attempts = attempts + 1,
         burned_at = CASE WHEN attempts + 1 >= $2 THEN now() ELSE burned_at END
       WHERE organization_id = $3 AND id = $1 RETURNING attempts`,
      [codeId, limit, organizationId],
    );
    return rows[0].attempts;
  }

  async markUsed(manager: EntityManager, organizationId: string, codeId: string): Promise<void> {
    await sql(
      manager,
      query`UPDATE visitor_login_codes SET used_at = now() WHERE organization_id = $2 AND id = $1`,
      [codeId, organizationId],
    );
  }

  /** Whether the code can still be used (the mail job checks before sending). */
  async codeUsable(organizationId: string, codeId: string): Promise<boolean> {
    const rows = await sql(
      this.dataSource,
      query<{ found: number }>`SELECT 1 AS found FROM visitor_login_codes
       WHERE organization_id = $1 AND id = $2 AND used_at IS NULL AND burned_at IS NULL
         AND expires_at > now()`,
      [organizationId, codeId],
    );
    return rows.length > 0;
  }

  async trusted(organizationId: string): Promise<TrustedLoginRow> {
    const rows = await sql(
      this.dataSource,
      query<TrustedLoginRow>`SELECT enabled, secret_hash, secret_prefix FROM trusted_login_settings
       WHERE organization_id = $1`,
      [organizationId],
    );
    return rows[0] ?? { enabled: false, secret_hash: null, secret_prefix: null };
  }

  async saveTrustedSecret(
    organizationId: string,
    hash: Buffer,
    prefix: string,
    executor: SqlExecutor = this.dataSource,
  ) {
    const rows = await sql(
      executor,
      query<TrustedLoginRow>`INSERT INTO trusted_login_settings (organization_id, secret_hash, secret_prefix, secret_created_at)
       VALUES ($1, $2, $3, now())
       ON CONFLICT (organization_id) DO UPDATE SET secret_hash = EXCLUDED.secret_hash,
         secret_prefix = EXCLUDED.secret_prefix, secret_created_at = now(), updated_at = now()
       RETURNING enabled, secret_hash, secret_prefix`,
      [organizationId, hash, prefix],
    );
    return rows[0];
  }

  /**
   * Switches trusted login (the caller checked that a secret exists before enabling; without a
   * row there is nothing to switch off).
   */
  async setTrustedEnabled(
    organizationId: string,
    enabled: boolean,
    executor: SqlExecutor = this.dataSource,
  ): Promise<TrustedLoginRow> {
    const rows = await sql(
      executor,
      query<TrustedLoginRow>`UPDATE trusted_login_settings SET enabled = $2, updated_at = now()
       WHERE organization_id = $1 RETURNING enabled, secret_hash, secret_prefix`,
      [organizationId, enabled],
    );
    return rows[0] ?? { enabled: false, secret_hash: null, secret_prefix: null };
  }
}
