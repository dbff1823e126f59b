import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { AgentPrincipal, Ability, ApiKeyPrincipal } from '../../common/auth/auth.types';
import { randomBase62, sameBytes, sha256 } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { InvalidationBus } from '../../common/invalidation/invalidation-bus';
import { DataSource } from 'typeorm';
import { AuditLogService } from '../audit/audit-log.service';
import { ApiKeyCache } from './api-key-cache';
import { type ApiKeyRow, ApiKeysRepository } from './api-keys.repository';

export const KEY_PREFIX = 'scs_live_';
const KEY_FORMAT = /^scs_live_[0-9A-Za-z]{40}$/;
const TOUCH_EVERY_MS = 60_000;
const API_KEY_TOPIC = 'api_key';

@Injectable()
export class ApiKeysService implements OnModuleInit {
  private readonly logger = new Logger(ApiKeysService.name);
  /** When this instance last wrote each key's `last_used_at`, to skip the write within a minute. */
  private readonly touched = new Map<string, number>();
  /** Keys looked up lately: most requests need no database round trip. */
  private readonly cache = new ApiKeyCache();

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly invalidation: InvalidationBus,
    private readonly dataSource: DataSource,
    private readonly audit: AuditLogService,
  ) {}

  onModuleInit(): void {
    // A key revoked on any instance is forgotten on every one within a round trip; after the
    // listener was away (a revocation may have been missed) nothing kept is trusted.
    this.invalidation.on(API_KEY_TOPIC, (keyId) => this.cache.forget(keyId));
    this.invalidation.onReset(() => this.cache.clear());
  }

  /** A new key: `scs_live_` + 40 base62 characters (about 238 bits). Only its hash is stored. */
  async create(
    organizationId: string,
    createdByUserId: string | null,
    input: { name: string; abilities: Ability[] },
  ): Promise<{ key: ApiKeyRow; plainText: string }> {
    const plainText = `${KEY_PREFIX}${randomBase62(40)}`;
    const key = await this.dataSource.transaction(async (manager) => {
      const row = await this.keys.insert(manager, organizationId, {
        createdByUserId,
        name: input.name,
        keyPrefix: plainText.slice(0, 12),
        keyHash: sha256(plainText),
        abilities: [...new Set(input.abilities)],
      });
      await this.audit.record(manager, organizationId, {
        action: 'api_key.created',
        target: { type: 'api_key', id: row.id, label: row.name },
        changes: {
          after: { name: row.name, key_prefix: row.key_prefix, abilities: row.abilities },
        },
      });
      return row;
    });
    return { key, plainText };
  }

  page(organizationId: string, page: { perPage: number; offset: number }) {
    return this.keys.pageActive(organizationId, page);
  }

  async revoke(actor: AgentPrincipal, keyId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const key = await this.keys.revoke(manager, actor.organizationId, keyId);
      if (!key) throw AppError.notFound();
      await this.audit.record(manager, actor.organizationId, {
        action: 'api_key.revoked',
        target: { type: 'api_key', id: key.id, label: key.name },
        changes: { before: { name: key.name, key_prefix: key.key_prefix } },
      });
    });
    this.cache.forget(keyId);
    await this.invalidation.publish(API_KEY_TOPIC, keyId).catch((error: unknown) =>
      // The other instances drop it when their cache entry ends (API_KEY_CACHE_TTL_MS).
      this.logger.error({ msg: 'key revocation not broadcast', keyId, err: String(error) }),
    );
  }

  /**
   * The key's principal, or undefined for a malformed, unknown or revoked key. A key found in the
   * database is kept for API_KEY_CACHE_TTL_MS, so a revocation made on another instance is seen
   * here within that time (on this instance, at once).
   */
  async authenticate(presented: string): Promise<ApiKeyPrincipal | undefined> {
    if (!KEY_FORMAT.test(presented)) return undefined;
    const hash = sha256(presented);
    // Without the invalidation listener a revocation elsewhere could go unseen: no cache then.
    const cached = this.invalidation.live ? this.cache.get(hash) : undefined;
    if (cached) {
      this.touch(cached, hash);
      return cached;
    }
    const key = await this.keys.findActiveByHash(hash);
    if (!key || !sameBytes(Buffer.from(key.key_hash), hash)) return undefined;
    const principal: ApiKeyPrincipal = Object.freeze({
      id: key.id,
      organizationId: key.organization_id,
      name: key.name,
      keyPrefix: key.key_prefix,
      abilities: Object.freeze([...key.abilities]) as ApiKeyPrincipal['abilities'],
      createdByUserId: key.created_by_user_id,
      lastUsedAt: key.last_used_at,
    });
    this.cache.set(hash, principal);
    this.touch(principal, hash);
    return principal;
  }

  private touch(key: ApiKeyPrincipal, hash: Buffer): void {
    const keyId = key.id;
    const now = Date.now();
    if (now - (this.touched.get(keyId) ?? 0) < TOUCH_EVERY_MS) return;
    this.touched.set(keyId, now);
    this.cache.touched(hash, new Date(now));
    this.keys
      .touch(key.organizationId, keyId)
      .catch((error: unknown) =>
        this.logger.warn({ msg: 'last_used_at not written', err: String(error) }),
      );
  }
}
