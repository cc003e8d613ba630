/**
 * Keeps the budget answering while the shared store (Redis) is unreachable: each replica counts in
 * its own process meanwhile (approximate: N replicas may together send up to N × a window's share,
 * and a pause another replica recorded is not seen), so live data keeps flowing and a provider's
 * 429 still pauses this replica. A warning is logged at most every 10 s; the next call the shared
 * store answers ends the outage.
 */
import { MemoryProviderBudgetStore } from './provider-budget.memory';
import type { BudgetTake, BudgetWindow, ProviderBudgetStore, UserBudget } from './provider-budget.port';

const WARN_EVERY_MS = 10_000;

export class FallbackProviderBudgetStore implements ProviderBudgetStore {
  private readonly local = new MemoryProviderBudgetStore();
  private lastWarnAt = 0;
  /** Calls the shared store failed (tests and logs). */
  failures = 0;

  constructor(
    private readonly shared: ProviderBudgetStore,
    private readonly logger: { warn(message: string, meta?: Record<string, unknown>): unknown },
  ) {}

  private async either<T>(call: (s: ProviderBudgetStore) => Promise<T>, now: number): Promise<T> {
    try {
      return await call(this.shared);
    } catch (err) {
      this.failures++;
      if (now - this.lastWarnAt >= WARN_EVERY_MS) {
        this.lastWarnAt = now;
        this.logger.warn('provider budget store unavailable: counting in this process only', { error: err, failures: this.failures });
      }
      return call(this.local);
    }
  }

  take(key: string, windows: readonly BudgetWindow[], share: number, now: number, user?: UserBudget): Promise<BudgetTake> {
    return this.either((s) => s.take(key, windows, share, now, user), now);
  }

  async pause(key: string, untilMs: number, now: number): Promise<void> {
    // Kept here too: a replica that loses the shared store still honours what it was told.
    await this.local.pause(key, untilMs);
    await this.either((s) => s.pause(key, untilMs, now), now);
  }

  async pausedUntil(key: string): Promise<number> {
    return Math.max(await this.local.pausedUntil(key), await this.either((s) => s.pausedUntil(key), Date.now()));
  }

  async close(): Promise<void> {
    await this.local.close();
    await this.shared.close();
  }
}
