/**
 * While the shared budget store is away, the budget still answers from this process (counting and
 * pausing here), warns, and uses the shared store again as soon as it answers.
 */
import { FallbackProviderBudgetStore } from '../../src/providers/budget/provider-budget.fallback';
import { MemoryProviderBudgetStore } from '../../src/providers/budget/provider-budget.memory';
import type { ProviderBudgetStore } from '../../src/providers/budget/provider-budget.port';

it('counts in this process while the shared store fails, then goes back to it', async () => {
  const shared = new MemoryProviderBudgetStore();
  let down = true;
  const flaky: ProviderBudgetStore = {
    take: (...a) => (down ? Promise.reject(new Error('ECONNREFUSED')) : shared.take(...a)),
    pause: (...a) => (down ? Promise.reject(new Error('ECONNREFUSED')) : shared.pause(...a)),
    pausedUntil: (k) => (down ? Promise.reject(new Error('ECONNREFUSED')) : shared.pausedUntil(k)),
    close: () => shared.close(),
  };
  const warnings: string[] = [];
  const store = new FallbackProviderBudgetStore(flaky, { warn: (m) => warnings.push(m) });
  const w = [{ limit: 2, windowMs: 60_000 }];
  const now = 1_000_000;
  expect((await store.take('polar', w, 1, now)).allowed).toBe(true);
  expect((await store.take('polar', w, 1, now)).allowed).toBe(true);
  expect((await store.take('polar', w, 1, now)).allowed).toBe(false);
  await store.pause('polar', now + 5_000, now);
  expect(await store.pausedUntil('polar')).toBe(now + 5_000);
  expect(warnings.length).toBeGreaterThanOrEqual(1);
  down = false;
  // The shared store's own count (nothing yet) decides again.
  expect((await store.take('polar', w, 1, now + 60_000)).allowed).toBe(true);
  expect(store.failures).toBe(5);
});
