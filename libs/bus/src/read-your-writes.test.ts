import { readYourWrites } from './read-your-writes';
import type { GroupPosition } from './event-log.port';

/** A log whose group handles one more message at every position read, up to `end`. */
function catchingUpLog(handled: number, end: number) {
  let now = handled;
  return {
    reads: 0,
    async groupPositions(): Promise<GroupPosition[]> {
      this.reads++;
      const at = now;
      now = Math.min(end, now + 1);
      return [{ partition: 0, handled: at, end }];
    },
  };
}

describe('readYourWrites.latest', () => {
  it('reads once the group has handled what the log held, even when the first read would have found something', async () => {
    const log = catchingUpLog(2, 5);
    const fresh = readYourWrites(log, { groupId: 'g', topic: 't', maxWaitMs: 2_000, pollMs: 1 });
    let readAt = -1;
    await fresh.latest(async () => {
      readAt = log.reads;
      return 'value';
    });
    // Positions read until handled reached 5: the read came after all of them.
    expect(readAt).toBeGreaterThanOrEqual(4);
    expect(fresh.outcomes['caught-up']).toBe(1);
  });

  it('reads at once when the group is level, and never waits past maxWaitMs', async () => {
    const level = readYourWrites(catchingUpLog(5, 5), { groupId: 'g', topic: 't', maxWaitMs: 2_000 });
    expect(await level.latest(async () => 1)).toBe(1);
    expect(level.outcomes.level).toBe(1);
    const stuck = readYourWrites({ groupPositions: async () => [{ partition: 0, handled: 0, end: 9 }] }, { groupId: 'g', topic: 't', maxWaitMs: 50, pollMs: 5 });
    const t0 = Date.now();
    expect(await stuck.latest(async () => 2)).toBe(2);
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(stuck.outcomes['gave-up']).toBe(1);
  });
});
