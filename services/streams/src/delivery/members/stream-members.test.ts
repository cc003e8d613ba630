import { manualClock } from '@wellstream/clock';
import type { MemberDirectory } from './member-directory';
import { StreamMembers } from './stream-members';

const quiet = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
/** Lets the directory's answer (a resolved promise) land. */
const settle = () => new Promise((r) => setImmediate(r));

/** A directory whose other replicas hold 3 clients of group g until `down` is set. */
function directory() {
  const state = { down: false, reads: 0 };
  const dir = {
    state,
    async publish() {},
    async others() {
      state.reads++;
      if (state.down) throw new Error('store down');
      return new Map([['g', 3]]);
    },
    async remove() {},
    async sweep() {
      return 0;
    },
  };
  return dir;
}

describe('member counts for pokes', () => {
  it('answers at once from the snapshot, and through a store outage: the last snapshot within a replica lifetime, own clients only after it', async () => {
    const dir = directory();
    // A clock moved by hand: the windows are about time passing, not about how fast this host runs.
    const clock = manualClock('2026-01-01T00:00:00Z');
    const members = new StreamMembers(dir as unknown as MemberDirectory, clock, quiet, { replicaId: 'r1', ttlMs: 120, cachedMs: 20 });
    const release = members.reserve('g');
    expect(members.cachedCountNow('g')).toBe(1); // no snapshot yet: own clients; a read starts
    await settle();
    clock.advance(5);
    expect(members.cachedCountNow('g')).toBe(4);
    dir.state.down = true;
    clock.advance(40); // past cachedMs: a read starts and fails; the last snapshot still counts
    expect(members.cachedCountNow('g')).toBe(4);
    await settle();
    clock.advance(5);
    expect(members.cachedCountNow('g')).toBe(4);
    await settle();
    clock.advance(130); // past the replica lifetime: the others' counts would have expired
    expect(members.cachedCountNow('g')).toBe(1);
    await settle();
    expect(dir.state.reads).toBeGreaterThan(2);
    release();
    expect(members.cachedCountNow('g')).toBe(0);
  });
});
