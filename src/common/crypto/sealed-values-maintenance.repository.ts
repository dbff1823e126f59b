import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { query, sql } from '../../database/sql';
import type { SecretBox } from './secret-box';

/** Every column holding a sealed value, with the column naming its row. */
const SEALED_COLUMNS = [
  { table: 'webhook_endpoints', key: 'id', column: 'secret_sealed' },
  { table: 'data_lookup_settings', key: 'site_id', column: 'url_sealed' },
  { table: 'mail_log', key: 'id', column: 'content_sealed' },
  { table: 'email_inboxes', key: 'id', column: 'imap_password_sealed' },
  { table: 'logins', key: 'id', column: 'two_factor_secret_sealed' },
  { table: 'logins', key: 'id', column: 'two_factor_pending_sealed' },
  { table: 'sso_settings', key: 'organization_id', column: 'client_secret_sealed' },
  { table: 'sso_attempts', key: 'id', column: 'verifier_sealed' },
] as const;

/** The advisory lock serializing re-sealing across instances and the CLI. */
const RESEAL_LOCK = 7_638_021_001;

/**
 * Maintenance over every organization's sealed values (start-up migration and `secrets:rotate`),
 * never reached from a request: it is the one place that writes them across tenants, so it is a
 * repository of its own rather than methods of the features' tenant-scoped ones.
 */
@Injectable()
export class SealedValuesMaintenanceRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The raw key and session secret a release before 0.15 kept in `service_secrets`, if any. */
  async legacyKeys(): Promise<Buffer[]> {
    const [table] = await sql(
      this.dataSource,
      query<{ exists: boolean }>`SELECT to_regclass('service_secrets') IS NOT NULL AS exists`,
    );
    if (!table?.exists) return [];
    const rows = await sql(
      this.dataSource,
      query<{ value: string }>`SELECT value FROM service_secrets WHERE name = 'secrets_key'`,
    );
    return rows.map((row) => Buffer.from(row.value, 'hex')).filter((key) => key.length === 32);
  }

  /**
   * Re-seals every value not sealed under the box's current key, in one transaction holding the
   * advisory lock; with `forgetLegacy`, the keys once kept in `service_secrets` are deleted in the
   * same transaction. Answers how many values were re-sealed.
   */
  async resealAll(box: SecretBox, options: { forgetLegacy?: boolean } = {}): Promise<number> {
    return this.dataSource.transaction(async (manager) => {
      await sql(
        manager,
        query<{ pg_advisory_xact_lock: void | null }>`SELECT pg_advisory_xact_lock($1)`,
        [RESEAL_LOCK],
      );
      let count = 0;
      for (const target of SEALED_COLUMNS) count += await reseal(manager, box, target);
      if (options.forgetLegacy) {
        await sql(
          manager,
          query`DO $$ BEGIN
             IF to_regclass('service_secrets') IS NOT NULL THEN DELETE FROM service_secrets; END IF;
           END $$`,
        );
      }
      return count;
    });
  }
}

async function reseal(
  manager: EntityManager,
  box: SecretBox,
  { table, key, column }: (typeof SEALED_COLUMNS)[number],
): Promise<number> {
  const rows = await sql<{ key: string; sealed: string }>(
    manager,
    `SELECT ${key}::text AS key, ${column} AS sealed FROM ${table}
     WHERE ${column} IS NOT NULL FOR UPDATE`,
  );
  let count = 0;
  for (const row of rows) {
    if (box.isCurrent(row.sealed)) continue;
    await sql(manager, `UPDATE ${table} SET ${column} = $1 WHERE ${key} = $2`, [
      box.seal(box.open(row.sealed)),
      row.key,
    ]);
    count += 1;
  }
  return count;
}
