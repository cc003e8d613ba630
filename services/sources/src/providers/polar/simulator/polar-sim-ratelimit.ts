/**
 * Polar's rate limits as "Rate limiting" documents them: a short-term (15 min) and a long-term
 * (24 h) limit, "500 + number of users × 20" and "5000 + number of users × 100", each window
 * starting with its first request and reset once it has passed; `RateLimit-Usage`, `-Limit` and
 * `-Reset` ("short term, long term", reset in seconds) on every answer; 429 past a limit, and
 * "requests violating the short term limit will still count toward the long term limit". Tests may
 * set a smaller short-term limit and window. Every request's arrival is kept for assertions.
 */
const DAY = 86_400_000;

interface Window {
  start: number | null;
  used: number;
}

export class PolarRateLimit {
  private short: Window = { start: null, used: 0 };
  private long: Window = { start: null, used: 0 };
  private custom?: { limit: number; windowMs: number };
  /** Every API request received: when, which path, and whether it was refused with 429. */
  readonly arrivals: { at: number; method: string; path: string; limited: boolean }[] = [];

  constructor(private readonly users: () => number) {}

  /** A short-term limit of `limit` per `windowS` (tests); undefined restores the documented one. */
  set(limit?: number, windowS = 900): void {
    this.custom = limit === undefined ? undefined : { limit, windowMs: windowS * 1000 };
    this.short = { start: null, used: 0 };
  }

  /** The short window's usage set to its limit (someone else spent it); the window keeps its end. */
  spend(now = Date.now()): void {
    const shortMs = this.custom?.windowMs ?? 15 * 60_000;
    if (this.short.start === null || now - this.short.start >= shortMs) this.short = { start: now, used: 0 };
    this.short.used = this.custom?.limit ?? 500 + this.users() * 20;
  }

  shortEndsAt(): number {
    return (this.short.start ?? Date.now()) + (this.custom?.windowMs ?? 15 * 60_000);
  }

  /** Counts one request; the headers for its answer and whether it is refused. */
  count(method: string, path: string, now = Date.now()): { limited: boolean; headers: Record<string, string> } {
    const shortMs = this.custom?.windowMs ?? 15 * 60_000;
    const limits = [this.custom?.limit ?? 500 + this.users() * 20, 5000 + this.users() * 100];
    for (const [w, ms] of [[this.short, shortMs], [this.long, DAY]] as const) {
      if (w.start === null || now - w.start >= ms) {
        w.start = now;
        w.used = 0;
      }
      w.used++;
    }
    const limited = this.short.used > limits[0] || this.long.used > limits[1];
    this.arrivals.push({ at: now, method, path, limited });
    const reset = [Math.ceil((this.short.start! + shortMs - now) / 1000), Math.ceil((this.long.start! + DAY - now) / 1000)];
    return {
      limited,
      headers: { 'ratelimit-usage': `${this.short.used}, ${this.long.used}`, 'ratelimit-limit': `${limits[0]}, ${limits[1]}`, 'ratelimit-reset': `${reset[0]}, ${reset[1]}` },
    };
  }
}
