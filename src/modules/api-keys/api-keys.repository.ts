import { Injectable } from '@nestjs/common';
import { pageOf, query, sql, type SqlExecutor } from '../../database/sql';
import { DataSource } from 'typeorm';
import type { Ability } from '../../common/auth/auth.types';

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  created_by_user_id: string | null;
  name: string;
  key_prefix: string;
  key_hash: Buffer;
  abilities: Ability[];
  last_used_at: Date | null;
  created_at: Date;
}

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    executor: SqlExecutor,
    organizationId: string,
    key: {
      createdByUserId: string | null;
      name: string;
      keyPrefix: string;
      keyHash: Buffer;
      abilities: Ability[];
    },
  ): Promise<ApiKeyRow> {
    const rows = await sql(
      executor,
      query<ApiKeyRow>`INSERT INTO api_keys (organization_id, created_by_user_id, name, key_prefix, key_hash, abilities)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id, organization_id, created_by_user_id, name, key_prefix, key_hash, abilities, last_used_at, created_at`,
      [organizationId, key.createdByUserId, key.name, key.keyPrefix, key.keyHash, key.abilities],
    );
    return rows[0];
  }

  /** A page of the keys not revoked, newest first, with their total. */
  pageActive(
    organizationId: string,
    page: { perPage: number; offset: number },
  ): Promise<{ rows: ApiKeyRow[]; total: number }> {
    return pageOf(
      this.dataSource,
      {
        rows: query<ApiKeyRow>`SELECT id, organization_id, created_by_user_id, name, key_prefix, key_hash, abilities, last_used_at, created_at FROM api_keys
          WHERE organization_id = $1 AND revoked_at IS NULL
          ORDER BY id DESC LIMIT $2 OFFSET $3`,
        total: query<{ total: string }>`SELECT count(*) AS total FROM api_keys
          WHERE organization_id = $1 AND revoked_at IS NULL`,
      },
      [organizationId],
      page,
    );
  }

  /** The revoked key, or undefined when there was no such active key. */
  async revoke(
    executor: SqlExecutor,
    organizationId: string,
    keyId: string,
  ): Promise<ApiKeyRow | undefined> {
    const rows = await sql(
      executor,
      query<ApiKeyRow>`UPDATE api_keys SET revoked_at = now() WHERE organization_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING id, organization_id, created_by_user_id, name, key_prefix, key_hash, abilities, last_used_at, created_at`,
      [organizationId, keyId],
    );
    return rows[0];
  }

  /** Authentication looks a key up by its hash, before any tenant is known. */
  async findActiveByHash(keyHash: Buffer): Promise<ApiKeyRow | undefined> {
    const rows = await sql(
      this.dataSource,
      query<ApiKeyRow>`SELECT id, organization_id, created_by_user_id, name, key_prefix, key_hash, abilities, last_used_at, created_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
      [keyHash],
    );
    return rows[0];
  }

  /** Writes `last_used_at` unless it was written less than a minute ago. */
  async touch(organizationId: string, keyId: string): Promise<void> {
    await sql(
      this.dataSource,
      query`UPDATE api_keys SET last_used_at = now()
       WHERE organization_id = $2 AND id = $1
         AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [keyId, organizationId],
    );
  }
}
