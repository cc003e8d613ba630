import { EventSink } from './event-sink';
import { startPokeTimer } from './poke-timer';

function fakeSink() {
  const pokes: number[] = [];
  const sink: { -readonly [K in keyof EventSink]: EventSink[K] } & { pokes: number[] } = {
    pokes,
    lastWriteAt: Date.now(),
    closed: false,
    droppedForNotReading: false,
    send: async () => {},
    heartbeat() {
      pokes.push(Date.now());
      sink.lastWriteAt = Date.now();
    },
    comment() {},
    onClose() {},
    close() {
      sink.closed = true;
    },
  };
  return sink;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('poke timers (one shared wheel per interval)', () => {
  afterEach(() => jest.useRealTimers());

  it('pokes an idle connection once per interval, later after a write, never after stop or close', async () => {
    // On the fake clock: on a loaded machine a real 50 ms interval can come 200 ms late, and the
    // busy connection then looks idle.
    jest.useFakeTimers();
    const idle = fakeSink();
    const busy = fakeSink();
    const stopped = fakeSink();
    const closed = fakeSink();
    const timers = [idle, busy, stopped, closed].map((s) => startPokeTimer(s, 200, () => 'p'));
    timers[2].stop();
    closed.close();
    const writes = setInterval(() => (busy.lastWriteAt = Date.now()), 50);
    await jest.advanceTimersByTimeAsync(1100);
    clearInterval(writes);
    // About one poke per 200 ms (slots are a fiftieth of the interval, at least 10 ms).
    expect(idle.pokes.length).toBeGreaterThanOrEqual(4);
    expect(idle.pokes.length).toBeLessThanOrEqual(5);
    for (let i = 1; i < idle.pokes.length; i++) expect(idle.pokes[i] - idle.pokes[i - 1]).toBeGreaterThanOrEqual(185);
    expect(busy.pokes).toEqual([]);
    expect(stopped.pokes).toEqual([]);
    expect(closed.pokes).toEqual([]);
    timers.forEach((t) => t.stop());
  });

  it('pokes at once on pokeNow', async () => {
    const s = fakeSink();
    const t = startPokeTimer(s, 60_000, () => 'p');
    t.pokeNow();
    await sleep(10);
    expect(s.pokes.length).toBe(1);
    t.stop();
  });
});
