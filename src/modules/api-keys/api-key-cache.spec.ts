import { createHash } from 'node:crypto';
import type { ApiKeyPrincipal } from '../../common/auth/auth.types';
import { API_KEY_CACHE_TTL_MS, ApiKeyCache } from './api-key-cache';

const hash = (text: string) => createHash('sha256').update(text).digest();
const principal = (id: string): ApiKeyPrincipal => ({
  id,
  organizationId: '1',
  name: `key ${id}`,
  keyPrefix: 'scs_live_abc',
  abilities: ['tickets:read'],
  createdByUserId: '1',
  lastUsedAt: null,
});

describe('ApiKeyCache', () => {
  it('keeps a key for the TTL and no longer', () => {
    const cache = new ApiKeyCache();
    cache.set(hash('a'), principal('1'), 1_000);
    expect(cache.get(hash('a'), 1_000 + API_KEY_CACHE_TTL_MS - 1)?.id).toBe('1');
    expect(cache.get(hash('a'), 1_000 + API_KEY_CACHE_TTL_MS)).toBeUndefined();
    expect(cache.get(hash('a'), 1_000)).toBeUndefined();
  });

  it('forgets a revoked key at once, under every hash it was cached with', () => {
    const cache = new ApiKeyCache();
    cache.set(hash('a'), principal('1'));
    cache.set(hash('b'), principal('2'));
    cache.forget('1');
    expect(cache.get(hash('a'))).toBeUndefined();
    expect(cache.get(hash('b'))?.id).toBe('2');
  });

  it('reports a new last_used_at after a touch', () => {
    const cache = new ApiKeyCache();
    const first = principal('1');
    cache.set(hash('a'), first);
    const at = new Date('2026-01-01T00:00:00Z');
    cache.touched(hash('a'), at);
    expect(cache.get(hash('a'))?.lastUsedAt).toEqual(at);
    expect(first.lastUsedAt).toBeNull();
  });

  it('drops the oldest entry beyond its size', () => {
    const cache = new ApiKeyCache(60_000, 2);
    cache.set(hash('a'), principal('1'));
    cache.set(hash('b'), principal('2'));
    cache.set(hash('c'), principal('3'));
    expect(cache.get(hash('a'))).toBeUndefined();
    expect(cache.get(hash('b'))?.id).toBe('2');
    expect(cache.get(hash('c'))?.id).toBe('3');
  });
});
