import { WriteLane } from './write-lane';

const flush = () => new Promise((r) => setImmediate(r));

describe('WriteLane', () => {
  it('starts each write once the one before it is done, in order, failures included', async () => {
    const lane = new WriteLane();
    const log: string[] = [];
    let finishFirst!: () => void;
    const first = lane.run(() => new Promise<void>((r) => (finishFirst = () => (log.push('first done'), r()))));
    const second = lane.run(async () => {
      log.push('second starts');
      throw new Error('refused');
    });
    const third = lane.run(async () => void log.push('third starts'));
    await flush();
    expect(log).toEqual([]);
    finishFirst();
    await first;
    await expect(second).rejects.toThrow('refused');
    await third;
    expect(log).toEqual(['first done', 'second starts', 'third starts']);
  });

  it('lets the next write go 250 ms after a stuck one started, not when it fails', async () => {
    jest.useFakeTimers();
    try {
      const lane = new WriteLane();
      void lane.run(() => new Promise<void>(() => undefined));
      let started = false;
      const next = lane.run(async () => void (started = true));
      await jest.advanceTimersByTimeAsync(249);
      expect(started).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      await next;
      expect(started).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });

  it('without a hold, keeps the next write waiting until the one before it is done', async () => {
    jest.useFakeTimers();
    try {
      const lane = new WriteLane(Infinity);
      let finish!: () => void;
      void lane.run(() => new Promise<void>((r) => (finish = r)));
      let started = false;
      const next = lane.run(async () => void (started = true));
      await jest.advanceTimersByTimeAsync(10_000);
      expect(started).toBe(false);
      finish();
      await next;
      expect(started).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});
