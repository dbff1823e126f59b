import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { handTyped, query, sql } from '../../database/sql';

export interface IdempotencyRecord {
  fingerprint: Buffer;
  status: number | null;
  /** The body exactly as sent; null for a request still running. */
  body_text: string | null;
  created_at: Date;
}

/**
 * Responses are kept 24 hours; a request still unfinished after 5 minutes is abandoned (the
 * intervals in `claim` and `purgeExpired`).
 */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims the key for this request. Returns undefined when the claim succeeded, else the record
   * already there. An expired record, or an abandoned unfinished one, is replaced by the claim.
   */
  async claim(
    apiKeyId: string,
    key: string,
    fingerprint: Buffer,
  ): Promise<IdempotencyRecord | undefined> {
    const claimed = await sql(
      this.dataSource,
      query<{
        key: string;
      }>`INSERT INTO idempotency_keys AS k (api_key_id, key, fingerprint) VALUES ($1, $2, $3)
       ON CONFLICT (api_key_id, key) DO UPDATE
         SET fingerprint = EXCLUDED.fingerprint, status = NULL, body = NULL, body_text = NULL, created_at = now(), completed_at = NULL
         WHERE k.created_at < now() - interval '24 hours'
            OR (k.completed_at IS NULL AND k.created_at < now() - interval '5 minutes')
       RETURNING key`,
      [apiKeyId, key, fingerprint],
    );
    if (claimed.length > 0) return undefined;
    const rows = await sql(
      this.dataSource,
      handTyped<
        IdempotencyRecord & { body: unknown }
      >`SELECT fingerprint, status, body_text, body, created_at FROM idempotency_keys WHERE api_key_id = $1 AND key = $2`,
      [apiKeyId, key],
    );
    if (!rows[0]) return undefined;
    const { body, ...record } = rows[0];
    // A row kept before body_text existed has only the jsonb body (its keys in jsonb's order).
    if (record.body_text === null && body !== null) record.body_text = JSON.stringify(body);
    return record;
  }

  /** Keeps the response: its status and its body as the exact JSON text sent. */
  async complete(apiKeyId: string, key: string, status: number, bodyText: string): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE idempotency_keys SET status = $3, body_text = $4, completed_at = now() WHERE api_key_id = $1 AND key = $2`,
      [apiKeyId, key, status, bodyText],
    );
  }

  /** Lets a retry run again (after a server error, nothing was promised). */
  async release(apiKeyId: string, key: string): Promise<void> {
    await sql(
      this.dataSource,
      query`DELETE FROM idempotency_keys WHERE api_key_id = $1 AND key = $2 AND completed_at IS NULL`,
      [apiKeyId, key],
    );
  }

  async purgeExpired(): Promise<void> {
    await sql(
      this.dataSource,
      query`DELETE FROM idempotency_keys WHERE created_at < now() - interval '24 hours'`,
    );
  }
}
