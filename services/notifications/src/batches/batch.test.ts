import { nextAttemptAfterFailure } from './batch';

describe('retry schedule', () => {
  const schedule = { retryDelaysMs: [60_000, 300_000, 1_800_000], jitter: 0.1 };

  it('waits the n-th delay after the n-th failed try, and ends after the last', () => {
    expect(nextAttemptAfterFailure(1, 0, schedule, () => 0.5)).toBe(60_000);
    expect(nextAttemptAfterFailure(2, 0, schedule, () => 0.5)).toBe(300_000);
    expect(nextAttemptAfterFailure(3, 0, schedule, () => 0.5)).toBe(1_800_000);
    expect(nextAttemptAfterFailure(4, 0, schedule, () => 0.5)).toBeNull();
    expect(nextAttemptAfterFailure(1, 0, { retryDelaysMs: [], jitter: 0 })).toBeNull();
  });

  it('jitters by at most ±10 %', () => {
    expect(nextAttemptAfterFailure(1, 1000, schedule, () => 0)).toBe(1000 + 54_000);
    expect(nextAttemptAfterFailure(1, 1000, schedule, () => 0.999999)).toBe(1000 + 66_000);
  });
});
