import { TimeSlice } from './time-slice';

describe('TimeSlice', () => {
  it('lets a timer run in the middle of a long synchronous-looking loop', async () => {
    const slice = new TimeSlice({ budgetMs: 2 });
    let timerRanAt = -1;
    setTimeout(() => (timerRanAt = i), 0);
    let i = 0;
    // Until the timer has run, at most 5 s: without the slice's yields it could not run inside the
    // loop at all. (A fixed 50 ms once ended before the first yield on a loaded machine, where the
    // process was descheduled for longer than that.)
    const until = Date.now() + 5000;
    for (; timerRanAt < 0 && Date.now() < until; i++) await slice.pause();
    expect(timerRanAt).toBeGreaterThan(0);
    expect(timerRanAt).toBeLessThan(i);
  });

  it('does not yield while within its budget', async () => {
    const slice = new TimeSlice({ budgetMs: 10_000 });
    let ran = false;
    setImmediate(() => (ran = true));
    for (let i = 0; i < 1000; i++) await slice.pause();
    expect(ran).toBe(false);
  });
});

describe('TimeSlice after a wait', () => {
  it('does not count time spent waiting on I/O as holding the loop', async () => {
    const slice = new TimeSlice({ budgetMs: 2 });
    await slice.pause();
    await new Promise((r) => setTimeout(r, 50)); // idle: the loop was free
    const t0 = performance.now();
    await slice.pause();
    expect(performance.now() - t0).toBeLessThan(10);
  });
});

describe('TimeSlice budget', () => {
  const busy = (ms: number) => {
    const t = performance.now();
    while (performance.now() - t < ms);
  };

  it('rests a history reader past the shared budget, never a live one (which still counts against it)', async () => {
    const timers = jest.spyOn(global, 'setTimeout');
    try {
      const history = new TimeSlice({ budgetMs: 2 });
      await history.pause();
      busy(60); // three times the saved-up burst
      await history.pause();
      expect(timers).toHaveBeenCalled(); // it rested on a timer until the budget recovered

      timers.mockClear();
      const live = new TimeSlice({ budgetMs: 2 });
      live.live = true;
      await live.pause();
      busy(60);
      await live.pause();
      expect(timers).not.toHaveBeenCalled(); // yielded, but did not rest

      const another = new TimeSlice({ budgetMs: 2 });
      await another.pause();
      busy(3);
      await another.pause();
      expect(timers).toHaveBeenCalled(); // the live reader's time was charged: history waits
    } finally {
      timers.mockRestore();
    }
  });

  it('never rests a light reader (few units this second), and rests it again once it is not light', async () => {
    const timers = jest.spyOn(global, 'setTimeout');
    try {
      const light = new TimeSlice({ budgetMs: 2, lightUnitsPerSecond: 3 });
      await light.pause(); // unit 1
      busy(60); // well past the shared budget
      await light.pause(); // unit 2: light, so it yields without resting
      expect(timers).not.toHaveBeenCalled();
      busy(3);
      await light.pause(); // unit 3: still light
      expect(timers).not.toHaveBeenCalled();
      busy(3);
      await light.pause(); // unit 4 within the same second: no longer light, rests on the budget
      expect(timers).toHaveBeenCalled();
    } finally {
      timers.mockRestore();
    }
  });
});
