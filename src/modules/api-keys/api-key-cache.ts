import { BoundedMap } from '../../common/bounded-map';
import type { ApiKeyPrincipal } from '../../common/auth/auth.types';

/**
 * How long an instance may keep answering from a key it looked up. A revocation reaches every
 * instance at once through the InvalidationBus; this bounds how long one whose broadcast failed
 * can still be used elsewhere (docs/decisions.md, Identity).
 */
export const API_KEY_CACHE_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  principal: ApiKeyPrincipal;
  expiresAt: number;
}

/**
 * Active API keys by the SHA-256 of the presented key, each kept for at most `ttlMs` after it
 * was read from the database. Unknown and revoked keys are never kept, so a key created a moment
 * ago works at once and a wrong key is always looked up.
 */
export class ApiKeyCache {
  private readonly entries: BoundedMap<string, Entry>;

  constructor(
    private readonly ttlMs = API_KEY_CACHE_TTL_MS,
    maxEntries = MAX_ENTRIES,
  ) {
    this.entries = new BoundedMap(maxEntries);
  }

  get(hash: Buffer, now = Date.now()): ApiKeyPrincipal | undefined {
    const id = hash.toString('base64');
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.principal;
  }

  set(hash: Buffer, principal: ApiKeyPrincipal, now = Date.now()): void {
    const id = hash.toString('base64');
    this.entries.set(id, { principal, expiresAt: now + this.ttlMs });
  }

  /** A key this instance saw in use again: later requests report the new `last_used_at`. */
  touched(hash: Buffer, at: Date): void {
    const entry = this.entries.get(hash.toString('base64'));
    if (entry) entry.principal = { ...entry.principal, lastUsedAt: at };
  }

  /** Forgets every key (notifications may have been missed). */
  clear(): void {
    this.entries.clear();
  }

  /** Forgets a key at once (revoked). */
  forget(keyId: string): void {
    for (const [id, entry] of this.entries) {
      if (entry.principal.id === keyId) this.entries.delete(id);
    }
  }
}
