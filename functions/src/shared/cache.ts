import { LRUCache } from 'lru-cache';

/**
 * A bounded per-instance cache of reads, keyed by string. Everyone asking for
 * a key while its read is under way shares that read. A read that fails, or
 * finds nothing (undefined), is forgotten, so the next caller reads again: a
 * document created later, or a backend back from an outage, is seen at once.
 * Full, it drops the least recently used entry; with `ttlMs`, an entry is
 * fresh for that long from when its read started.
 */
export interface ReadCache<T> {
  get(key: string, read: () => Promise<T>): Promise<T>;
  /** Forgets every entry (as a fresh instance would). */
  clear(): void;
  /** Forgets one entry: the next get reads again. */
  forget(key: string): void;
}

export function readCache<T>({ max, ttlMs }: { max: number; ttlMs?: number }): ReadCache<T> {
  const entries = new LRUCache<string, Promise<T>>(ttlMs === undefined ? { max } : { max, ttl: ttlMs });
  return {
    get(key, read) {
      const cached = entries.get(key);
      if (cached) return cached;
      const pending = read();
      entries.set(key, pending);
      // Only this read's own entry: a newer read of the key (after a clear, or past ttl) stays.
      const forget = () => entries.peek(key) === pending && entries.delete(key);
      pending.then((value) => value === undefined && forget(), forget);
      return pending;
    },
    clear: () => entries.clear(),
    forget: (key) => void entries.delete(key),
  };
}
