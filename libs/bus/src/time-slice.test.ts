import { EventEmitter } from 'node:events';
import { answeringRequest, GIVE_WAY_MAX_MS, TimeSlice } from './time-slice';

describe('TimeSlice', () => {
  it('lets a timer run in the middle of a long synchronous-looking loop', async () => {
    const slice = new TimeSlice({ budgetMs: 2 });
    let timerRanAt = -1;
    setTimeout(() => (timerRanAt = i), 0);
    let i = 0;
    const until = Date.now() + 50;
    for (; Date.now() < until; i++) await slice.pause();
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
});

describe('TimeSlice giving way to requests', () => {
  const turns = async (n: number) => {
    for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
  };
  const response = () => Object.assign(new EventEmitter(), { writeHead: jest.fn() });
  /** A history reader that has used up its slice: its next pause() yields and then decides whether to go on. */
  const spentReader = async () => {
    const reader = new TimeSlice({ budgetMs: 0, givesWay: true });
    await reader.pause(); // starts its slice
    return reader;
  };

  beforeEach(async () => {
    await new Promise((r) => setTimeout(r, 30)); // the shared budget recovers from earlier tests
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'performance', 'queueMicrotask', 'hrtime'] });
  });
  afterEach(() => jest.useRealTimers());

  it('waits while a request is answered and goes on once its response head is written', async () => {
    const res = response();
    const writeHead = res.writeHead;
    const reader = await spentReader();
    answeringRequest(res);
    let resumed = false;
    const paused = reader.pause().then(() => (resumed = true));
    await turns(5);
    expect(resumed).toBe(false);
    res.writeHead(200);
    expect(writeHead).toHaveBeenCalledWith(200); // the response itself is written as before
    await turns(3);
    expect(resumed).toBe(true);
    await paused;
  });

  it('goes on when the connection closes before any answer', async () => {
    const res = response();
    const reader = await spentReader();
    answeringRequest(res);
    let resumed = false;
    void reader.pause().then(() => (resumed = true));
    await turns(5);
    expect(resumed).toBe(false);
    res.emit('close');
    await turns(3);
    expect(resumed).toBe(true);
  });

  it('hands one waiting reader a pass per interval while requests never stop, in turn', async () => {
    const res = response();
    const first = await spentReader();
    const second = await spentReader();
    answeringRequest(res);
    const resumed: string[] = [];
    void first.pause().then(() => resumed.push('first'));
    void second.pause().then(() => resumed.push('second'));
    await turns(5);
    expect(resumed).toEqual([]);
    jest.advanceTimersByTime(GIVE_WAY_MAX_MS);
    await turns(3);
    expect(resumed).toEqual(['first']);
    jest.advanceTimersByTime(GIVE_WAY_MAX_MS);
    await turns(3);
    expect(resumed).toEqual(['first', 'second']);
    res.emit('close');
  });

  it('leaves live readers and consumer groups alone', async () => {
    const res = response();
    const live = new TimeSlice({ budgetMs: 0, givesWay: true });
    live.live = true;
    const consumer = new TimeSlice({ budgetMs: 0 });
    await live.pause();
    await consumer.pause();
    answeringRequest(res);
    const resumed: string[] = [];
    void live.pause().then(() => resumed.push('live'));
    void consumer.pause().then(() => resumed.push('consumer'));
    await turns(3);
    expect(resumed.sort()).toEqual(['consumer', 'live']);
    res.emit('close');
  });
});
