import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { answeringRequest, GIVE_WAY_MAX_MS } from './answering-requests';
import { TimeSlice } from './time-slice';

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
    // The clock the slices read stands still: on a loaded machine (a CI run) the real milliseconds
    // between a slice's start and its pause spent the shared long-read budget, and the reader then
    // rested on a (fake) timer these cases never advance. What is tested here is who waits for whom.
    const now = performance.now();
    jest.spyOn(performance, 'now').mockReturnValue(now);
  });
  afterEach(() => {
    jest.restoreAllMocks();
    jest.useRealTimers();
  });

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
