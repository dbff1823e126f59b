import { Injectable, Logger } from '@nestjs/common';
import type { AgentPrincipal, Ability, ApiKeyPrincipal } from '../../common/auth/auth.types';
import { randomBase62, sameBytes, sha256 } from '../../common/crypto/secrets';
import { AppError } from '../../common/errors/app-error';
import { ApiKeyCache } from './api-key-cache';
import { type ApiKeyRow, ApiKeysRepository } from './api-keys.repository';

export const KEY_PREFIX = 'scs_live_';
const KEY_FORMAT = /^scs_live_[0-9A-Za-z]{40}$/;
const TOUCH_EVERY_MS = 60_000;

@Injectable()
export class ApiKeysService {
  private readonly logger = new Logger(ApiKeysService.name);
  /** When this instance last wrote each key's `last_used_at`, to skip the write within a minute. */
  private readonly touched = new Map<string, number>();
  /** Keys looked up in the last few seconds: most requests need no database round trip. */
  private readonly cache = new ApiKeyCache();

  constructor(private readonly keys: ApiKeysRepository) {}

  /** A new key: `scs_live_` + 40 base62 characters (about 238 bits). Only its hash is stored. */
  async create(
    organizationId: string,
    createdByUserId: string | null,
    input: { name: string; abilities: Ability[] },
  ): Promise<{ key: ApiKeyRow; plainText: string }> {
    const plainText = `${KEY_PREFIX}${randomBase62(40)}`;
    const key = await this.keys.insert(organizationId, {
      createdByUserId,
      name: input.name,
      keyPrefix: plainText.slice(0, 12),
      keyHash: sha256(plainText),
      abilities: [...new Set(input.abilities)],
    });
    return { key, plainText };
  }

  page(organizationId: string, page: { perPage: number; offset: number }) {
    return this.keys.pageActive(organizationId, page);
  }

  async revoke(actor: AgentPrincipal, keyId: string): Promise<void> {
    if (!(await this.keys.revoke(actor.organizationId, keyId))) throw AppError.notFound();
    this.cache.forget(keyId);
  }

  /**
   * The key's principal, or undefined for a malformed, unknown or revoked key. A key found in the
   * database is kept for API_KEY_CACHE_TTL_MS, so a revocation made on another instance is seen
   * here within that time (on this instance, at once).
   */
  async authenticate(presented: string): Promise<ApiKeyPrincipal | undefined> {
    if (!KEY_FORMAT.test(presented)) return undefined;
    const hash = sha256(presented);
    const cached = this.cache.get(hash);
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
