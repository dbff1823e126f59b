import { BoundedMap } from '../bounded-map';
import { Injectable, Logger } from '@nestjs/common';
import { InvalidationBus } from './invalidation-bus';

/** The bus topic: something of a site that `SiteCache` keeps changed (the id is the site's). */
export const SITE_CONTENT_TOPIC = 'site_content';
/** At most this long per entry, should a change's broadcast ever fail. */
export const SITE_CACHE_TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  value: unknown;
  siteId: string;
  generation: number;
  expiresAt: number;
}

/**
 * What the public pages read of a site far more often than it changes (the help center's site,
 * articles and categories, the visitors' searches), kept in memory per instance. Any change to a
 * site's settings, articles or categories, on any instance, drops everything kept of that site at
 * once (`changed`, through the InvalidationBus, after the change committed); a read that ran
 * across a change is not kept, and while the bus is down nothing is answered from memory. Misses
 * (`undefined`) are never kept; 10 000 entries at most, least recently used out first.
 */
@Injectable()
export class SiteCache {
  private readonly logger = new Logger(SiteCache.name);
  private readonly entries = new BoundedMap<string, Entry>(MAX_ENTRIES);
  /** Bumped by each change of a site: entries read under an older generation are stale. */
  private readonly generations = new Map<string, number>();
  /** Bumped by any change: a read that saw one begin may hold data from before it. */
  private changes = 0;

  constructor(private readonly invalidation: InvalidationBus) {
    invalidation.on(SITE_CONTENT_TOPIC, (siteId) => this.bump(siteId));
    invalidation.onReset(() => this.entries.clear());
  }

  /**
   * The value kept under `key`, else `load()`'s, kept (unless undefined or a change happened
   * meanwhile) as a value of the site `siteOf` names.
   */
  async get<T>(
    key: string,
    load: () => Promise<T | undefined>,
    siteOf: (value: T) => string,
  ): Promise<T | undefined> {
    if (!this.invalidation.live) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.generation === this.generation(hit.siteId) && hit.expiresAt > now) {
        // Most recently used last: the oldest go first when the cache is full.
        this.entries.set(key, hit);
        return hit.value as T;
      }
      this.entries.delete(key);
    }
    const changesBefore = this.changes;
    const value = await load();
    if (value === undefined || this.changes !== changesBefore) return value;
    const siteId = siteOf(value);
    this.entries.set(key, {
      value,
      siteId,
      generation: this.generation(siteId),
      expiresAt: now + SITE_CACHE_TTL_MS,
    });
    return value;
  }

  /**
   * Something kept of this site changed (call after the change committed): dropped here at once
   * and on the other instances within a round trip.
   */
  async changed(siteId: string): Promise<void> {
    this.bump(siteId);
    await this.invalidation.publish(SITE_CONTENT_TOPIC, siteId).catch((error: unknown) =>
      this.logger.warn({
        msg: "a site's cached pages not dropped on the other instances",
        err: error instanceof Error ? error.message : String(error),
      }),
    );
  }

  private generation(siteId: string): number {
    return this.generations.get(siteId) ?? 0;
  }

  private bump(siteId: string): void {
    this.changes += 1;
    this.generations.set(siteId, this.generation(siteId) + 1);
  }
}
