/**
 * A Map of at most `limit` entries: setting a key makes it the newest, and a set on a full map
 * first forgets the oldest (a Map iterates in insertion order). Used by the per-instance caches
 * (API keys, sites, validated queries, webhook connection agents).
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    this.delete(key);
    if (this.size >= this.limit) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}
