/**
 * In-process rate limiting for the embedded runtime. Node runs one callback at a time, so a
 * read-increment-write here is atomic without locks.
 */
import { RateLimitResult, RateLimitStore, windowStart, WindowUsage } from './rate-limit.port';

/** A key's count in its latest window, and the count of the window just before that one. */
interface Counter {
  window: number;
  count: number;
  previous: number;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, Counter>();
  private sweeps = 0;

  async hit(key: string, limit: number, windowMs: number, now = Date.now()): Promise<RateLimitResult> {
    const window = windowStart(now, windowMs);
    const counter = this.roll(this.counters.get(key), window, windowMs);
    // Denied hits are not counted, so a client hammering the limit does not push its reset out.
    const allowed = counter.count < limit;
    if (allowed) counter.count++;
    this.counters.set(key, counter);
    if (++this.sweeps % 10_000 === 0) this.sweep(window - windowMs);
    return { allowed, limit, remaining: Math.max(0, limit - counter.count), resetAt: window + windowMs };
  }

  async usage(keys: readonly string[], windowMs: number, now = Date.now()): Promise<WindowUsage[]> {
    const window = windowStart(now, windowMs);
    return keys.map((key) => {
      const c = this.roll(this.counters.get(key), window, windowMs);
      return { windowStart: window, current: c.count, previous: c.previous };
    });
  }

  /** The counter as of `window`: the same one, or a fresh one that remembers the window before. */
  private roll(c: Counter | undefined, window: number, windowMs: number): Counter {
    if (c && c.window === window) return c;
    return { window, count: 0, previous: c && c.window === window - windowMs ? c.count : 0 };
  }

  /** Drops counters older than `oldest` (the previous window's stay: the usage read reports them). */
  private sweep(oldest: number) {
    for (const [k, c] of this.counters) if (c.window < oldest) this.counters.delete(k);
  }

  async healthy(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.counters.clear();
  }
}
