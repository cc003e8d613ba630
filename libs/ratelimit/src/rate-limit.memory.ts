/**
 * In-process rate limiting for the embedded runtime. Node runs one callback at a time, so a
 * read-increment-write here is atomic without locks.
 */
import { RateLimitResult, RateLimitStore, windowStart } from './rate-limit.port';

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, { window: number; count: number }>();
  private sweeps = 0;

  async hit(key: string, limit: number, windowMs: number, now = Date.now()): Promise<RateLimitResult> {
    const window = windowStart(now, windowMs);
    const current = this.counters.get(key);
    const counter = current && current.window === window ? current : { window, count: 0 };
    // Denied hits are not counted, so a client hammering the limit does not push its reset out.
    const allowed = counter.count < limit;
    if (allowed) counter.count++;
    this.counters.set(key, counter);
    if (++this.sweeps % 10_000 === 0) this.sweep(window);
    return { allowed, limit, remaining: Math.max(0, limit - counter.count), resetAt: window + windowMs };
  }

  private sweep(window: number) {
    for (const [k, c] of this.counters) if (c.window < window) this.counters.delete(k);
  }

  async healthy(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.counters.clear();
  }
}
