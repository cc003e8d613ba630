/**
 * The provider budget of the embedded runtime (one process): counters in a Map. Node runs one
 * callback at a time, so check-and-count here is atomic without locks.
 */
import { BudgetTake, BudgetWindow, ceilingOf, ProviderBudgetStore, UserBudget, windowStart } from './provider-budget.port';

export class MemoryProviderBudgetStore implements ProviderBudgetStore {
  private readonly counters = new Map<string, { window: number; count: number }>();
  private readonly pauses = new Map<string, number>();

  async take(key: string, windows: readonly BudgetWindow[], share: number, now: number, user?: UserBudget): Promise<BudgetTake> {
    const paused = this.pauses.get(key) ?? 0;
    if (paused > now) return { allowed: false, retryAfterMs: paused - now };
    let wait = -1;
    const all = [...windows.map((w) => ({ id: `${key}:${w.windowMs}`, w })), ...(user?.windows ?? []).map((w) => ({ id: `${key}:u:${user!.id}:${w.windowMs}`, w }))];
    const counters = all.map(({ id, w }) => {
      const start = windowStart(now, w.windowMs);
      const c = this.counters.get(id);
      const current = c && c.window === start ? c : { window: start, count: 0 };
      if (current.count >= ceilingOf(w.limit, share)) wait = Math.max(wait, start + w.windowMs - now);
      return [id, current] as const;
    });
    if (wait >= 0) return { allowed: false, retryAfterMs: Math.max(1, wait) };
    for (const [id, c] of counters) this.counters.set(id, { window: c.window, count: c.count + 1 });
    return { allowed: true, retryAfterMs: 0 };
  }

  async pause(key: string, untilMs: number, _now?: number): Promise<void> {
    this.pauses.set(key, Math.max(untilMs, this.pauses.get(key) ?? 0));
  }

  async pausedUntil(key: string): Promise<number> {
    return this.pauses.get(key) ?? 0;
  }

  async close(): Promise<void> {
    this.counters.clear();
    this.pauses.clear();
  }
}
