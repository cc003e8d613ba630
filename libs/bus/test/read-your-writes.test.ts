import type { GroupPosition } from '../src/event-log.port';
import { readYourWrites } from '../src/read-your-writes';

/** A log whose group positions the test sets, counting how often they were read. */
function fakeLog(initial: GroupPosition[]) {
  const state = { positions: initial, reads: 0, fail: false, hang: false };
  return {
    state,
    groupPositions: async () => {
      state.reads++;
      if (state.hang) return new Promise<GroupPosition[]>(() => {});
      if (state.fail) throw new Error('log down');
      return state.positions.map((p) => ({ ...p }));
    },
  };
}

const at = (handled: number, end: number, partition = 0): GroupPosition => ({ partition, handled, end });

describe('readYourWrites', () => {
  it('returns what the first lookup found without asking the log', async () => {
    const log = fakeLog([at(0, 5)]);
    const ryw = readYourWrites(log, { groupId: 'g', topic: 't', maxWaitMs: 10_000 });
    expect(await ryw.find(async () => 'found')).toBe('found');
    expect(log.state.reads).toBe(0);
  });

  it('refuses an unknown key without waiting when the group is level with the log', async () => {
    const log = fakeLog([at(7, 7), at(3, 3, 1)]);
    const ryw = readYourWrites(log, { groupId: 'g', topic: 't', maxWaitMs: 10_000 });
    let lookups = 0;
    const started = Date.now();
    expect(await ryw.find(async () => (lookups++, null))).toBeNull();
    // One position read, no polling, two lookups (the second covers a write handled meanwhile).
    expect([log.state.reads, lookups]).toEqual([1, 2]);
    expect(ryw.outcomes).toMatchObject({ level: 1, 'caught-up': 0, 'gave-up': 0 });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('waits while the group is behind, until it has handled what the log held at the miss, then looks again', async () => {
    const log = fakeLog([at(4, 6), at(2, 2, 1)]);
    const ryw = readYourWrites(log, { groupId: 'g', topic: 't', maxWaitMs: 10_000, pollMs: 5 });
    let projected: string | null = null;
    setTimeout(() => {
      // More arrives meanwhile: the lookup must not wait for it, only for offsets below 6.
      log.state.positions = [at(6, 9), at(2, 4, 1)];
      projected = 'user';
    }, 60);
    expect(await ryw.find(async () => projected)).toBe('user');
    expect(ryw.outcomes['caught-up']).toBe(1);
  });

  it('gives up after maxWaitMs when the group does not move, and answers what the projection holds', async () => {
    const log = fakeLog([at(0, 1)]);
    const ryw = readYourWrites(log, { groupId: 'g', topic: 't', maxWaitMs: 150, pollMs: 5 });
    const started = Date.now();
    expect(await ryw.find(async () => undefined)).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(ryw.outcomes['gave-up']).toBe(1);
  });

  it('does not wait when the log cannot say where it stands (an outage), nor when too many already wait', async () => {
    const log = fakeLog([at(0, 1)]);
    log.state.fail = true;
    const ryw = readYourWrites(log, { groupId: 'g', topic: 't', maxWaitMs: 10_000, maxWaiting: 0 });
    expect(await ryw.find(async () => null)).toBeNull();
    log.state.hang = true;
    const slow = readYourWrites(log, { groupId: 'g', topic: 't', maxWaitMs: 10_000, positionsTimeoutMs: 50 });
    const started = Date.now();
    expect(await slow.find(async () => null)).toBeNull();
    expect(Date.now() - started).toBeLessThan(1_000);
    log.state.fail = false;
    log.state.hang = false;
    expect(await ryw.find(async () => null)).toBeNull();
    expect(ryw.outcomes).toMatchObject({ unknown: 1, 'gave-up': 1 });
    expect(slow.outcomes.unknown).toBe(1);
  });
});
