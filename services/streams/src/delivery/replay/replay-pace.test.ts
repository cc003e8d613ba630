import { ReplayPace } from './replay-pace';

describe('ReplayPace', () => {
  it('lets a burst of a tenth of a second go at once, then rests', async () => {
    let now = 0;
    const pace = new ReplayPace(1000, () => now); // a clock that stands still: no refill
    const timers = jest.spyOn(global, 'setTimeout');
    try {
      for (let i = 0; i < 100; i++) await pace.take();
      expect(timers).not.toHaveBeenCalled();
      const next = pace.take();
      expect(timers).toHaveBeenCalledTimes(1);
      now += 1; // one event's worth of time passes
      await next;
    } finally {
      timers.mockRestore();
    }
  });

  it('never sends more than the burst plus the pace over any stretch (a slow machine only sends fewer)', async () => {
    const pace = new ReplayPace(2000);
    let sent = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 300) {
      await pace.take();
      sent++;
    }
    const elapsed = performance.now() - t0;
    expect(sent).toBeLessThanOrEqual(200 + Math.ceil((elapsed * 2000) / 1000) + 1);
  });

  it('rests on a timer, not a busy loop: other work runs meanwhile', async () => {
    const pace = new ReplayPace(100);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    for (let i = 0; i < 15; i++) await pace.take(); // 10 from the burst, then ~50 ms of rests
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });
});
