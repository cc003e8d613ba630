/**
 * The EventLog contract: one suite, run against every adapter (embedded in the component project,
 * Kafka in the integration project) with the same assertions. Excluded from the build; jest
 * imports it from each adapter's test file.
 */
import { randomBytes } from 'node:crypto';
import { currentRequestId, runWithRequestContext } from '@wellstream/logging';
import type { EventLog, GroupSubscription, LogMessage, OutgoingMessage, Subscription } from './event-log.port';
import { REQUEST_ID_HEADER } from './event-log.port';
import { partitionFor } from './partitioner';

export interface EventLogHarness {
  /** A new adapter instance on the same backing log (opening it again is a "restart"). */
  open(): Promise<EventLog>;
  /** Makes compaction run now (embedded) or soon (Kafka: topics here get a short segment.ms). */
  compact(log: EventLog): Promise<void>;
  /** Upper bound for anything asynchronous (group joins, rebalances, deliveries). */
  waitMs: number;
  /** Upper bound for compaction to become visible. */
  compactionWaitMs: number;
  /** Removes what the suite created (temp files, adapters left open). */
  cleanup?(): Promise<void>;
}

const rnd = () => randomBytes(4).toString('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until `check` returns true; fails with `what` after `ms`. */
export async function until(what: string, ms: number, check: () => boolean | Promise<boolean>, everyMs = 50): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for: ${what}`);
    await sleep(everyMs);
  }
}

const msg = (key: string, value: unknown, partitionKey?: string): OutgoingMessage => ({ key, value: JSON.stringify(value), partitionKey });

interface Collector {
  seen: LogMessage[];
  assignment: number[];
  handle(m: LogMessage): Promise<void>;
  onAssignment(p: number[]): void;
}

function collector(onMessage?: (m: LogMessage) => void | Promise<void>): Collector {
  const c: Collector = {
    seen: [],
    assignment: [],
    handle: async (m) => {
      await onMessage?.(m);
      c.seen.push(m);
    },
    onAssignment: (p) => {
      c.assignment = p;
    },
  };
  return c;
}

/** Reads a whole topic (or one tenant's slice) from the beginning (until caught up) and returns what it holds. */
async function readAll(log: EventLog, topic: string, waitMs: number, fromTimestamp?: number, tenant?: string): Promise<LogMessage[]> {
  const seen: LogMessage[] = [];
  let caughtUp = false;
  const sub = await log.tail({
    topic,
    tenant,
    fromTimestamp,
    handle: async (m) => {
      seen.push(m);
    },
    onCaughtUp: () => {
      caughtUp = true;
    },
  });
  try {
    await until('tail caught up', waitMs, () => caughtUp);
  } finally {
    await sub.stop();
  }
  return seen;
}

export function eventLogContract(label: string, makeHarness: () => Promise<EventLogHarness>): void {
  describe(`EventLog contract: ${label}`, () => {
    let h: EventLogHarness;
    let log: EventLog;
    const subs: Subscription[] = [];
    const consume = async (l: EventLog, topic: string, groupId: string, c: Collector, fromBeginning = true) => {
      const s = await l.consume({ topic, groupId, fromBeginning, handle: c.handle, onAssignment: c.onAssignment });
      subs.push(s);
      return s;
    };

    beforeAll(async () => {
      h = await makeHarness();
      log = await h.open();
    });
    afterEach(async () => {
      await Promise.all(subs.splice(0).map((s) => s.stop()));
    });
    afterAll(async () => {
      await log?.close();
      await h?.cleanup?.();
    });

    it('keeps order per partition key and places keys where partitionFor() says', async () => {
      const topic = `order-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 3 });
      const users = ['u-alpha', 'u-beta', 'u-gamma', 'u-delta'];
      for (let batch = 0; batch < 3; batch++) {
        await log.publish(topic, users.flatMap((u) => [0, 1, 2].map((i) => msg(`${u}-r${batch * 3 + i}`, { u, n: batch * 3 + i }, u))));
      }
      const c = collector();
      await consume(log, topic, `g-${rnd()}`, c);
      await until('36 messages', h.waitMs, () => c.seen.length >= 36);
      for (const u of users) {
        const mine = c.seen.filter((m) => JSON.parse(m.value).u === u);
        expect(mine.map((m) => JSON.parse(m.value).n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
        expect(new Set(mine.map((m) => m.partition))).toEqual(new Set([partitionFor(u, 3)]));
      }
      for (const m of c.seen) expect(m.topic).toBe(topic);
    });

    it('gives each message to exactly one member of a group, rebalances when a member leaves, and counts members', async () => {
      const topic = `group-${rnd()}`;
      const groupId = `g-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 4 });
      const a = collector();
      const b = collector();
      await consume(log, topic, groupId, a);
      const subB = await consume(log, topic, groupId, b);
      await until('two members with disjoint partitions covering all', h.waitMs, () => {
        const all = [...a.assignment, ...b.assignment].sort();
        return a.assignment.length > 0 && b.assignment.length > 0 && all.join() === '0,1,2,3';
      });
      await until('two members', h.waitMs, async () => (await log.groupMemberCount(groupId)) === 2, 200);
      const users = Array.from({ length: 12 }, (_, i) => `user-${i}`);
      await log.publish(topic, users.flatMap((u) => [1, 2, 3].map((i) => msg(`${u}-${i}`, { u, i }, u))));
      await until('36 deliveries', h.waitMs, () => a.seen.length + b.seen.length >= 36);
      await sleep(300);
      const keys = [...a.seen, ...b.seen].map((m) => m.key);
      expect(keys).toHaveLength(36);
      expect(new Set(keys).size).toBe(36);
      for (const m of a.seen) expect(a.assignment).toContain(m.partition);
      for (const m of b.seen) expect(b.assignment).toContain(m.partition);
      expect(a.seen.length).toBeGreaterThan(0);
      expect(b.seen.length).toBeGreaterThan(0);

      await subB.stop();
      await until('the remaining member owns every partition', h.waitMs, () => a.assignment.join() === '0,1,2,3');
      const before = a.seen.length;
      await log.publish(topic, users.map((u) => msg(`${u}-after`, { u }, u)));
      await until('12 more deliveries to the remaining member', h.waitMs, () => a.seen.length >= before + 12);
      expect(b.seen.filter((m) => m.key.endsWith('-after'))).toHaveLength(0);
      await until('one member', h.waitMs, async () => (await log.groupMemberCount(groupId)) === 1, 200);
    });

    it('redelivers a message whose handler failed or whose member stopped before committing, and keeps committed positions across a restart', async () => {
      const topic = `alo-${rnd()}`;
      const groupId = `g-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 1 });
      const first = collector((m) => {
        if (m.key === 'm2') throw new Error('handler crash');
      });
      const attempts = () => first.seen.length; // failing attempts are not recorded in `seen`
      let m2Tries = 0;
      const probe = collector();
      const sub = await consume(log, topic, groupId, {
        ...first,
        handle: async (m) => {
          if (m.key === 'm2') m2Tries++;
          await first.handle(m);
          await probe.handle(m);
        },
      });
      await log.publish(topic, [msg('m1', 1), msg('m2', 2), msg('m3', 3)]);
      await until('m2 tried at least twice', h.waitMs, () => m2Tries >= 2);
      expect(attempts()).toBe(1);
      expect(probe.seen.map((m) => m.key)).toEqual(['m1']); // m3 waits behind m2: never skipped
      await sub.stop();

      // "Crash": a new adapter instance (same backing log) joins the same group.
      await log.close();
      log = await h.open();
      const second = collector();
      await consume(log, topic, groupId, second);
      await until('m2 and m3 redelivered', h.waitMs, () => second.seen.length >= 2);
      await sleep(300);
      expect(second.seen.map((m) => m.key)).toEqual(['m2', 'm3']);
    });

    it('rewinds a partition it holds to an earlier offset (handled again from there), never forward, never a partition it does not hold', async () => {
      const topic = `rewind-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 2 });
      const c = collector();
      const sub = await consume(log, topic, `g-${rnd()}`, c);
      await log.publish(topic, [1, 2, 3, 4, 5].map((n) => msg(`r-${n}`, { n }, 'u-rewind')));
      await until('5 messages', h.waitMs, () => c.seen.length >= 5);
      const partition = c.seen[0].partition;
      const third = c.seen[2].offset;
      // Forward (past what was read) and a partition nobody here reads change nothing.
      expect(sub.rewind(partition, c.seen[4].offset + 100)).toBe(false);
      expect(sub.rewind(1 - partition, 0)).toBe(false);
      expect(sub.rewind(partition, third)).toBe(true);
      await until('3 to 5 again', h.waitMs, () => c.seen.length >= 8);
      await log.publish(topic, [msg('r-6', { n: 6 }, 'u-rewind')]);
      await until('the next one', h.waitMs, () => c.seen.length >= 9);
      await new Promise((r) => setTimeout(r, 300));
      expect(c.seen.map((m) => JSON.parse(m.value).n)).toEqual([1, 2, 3, 4, 5, 3, 4, 5, 6]);
    });

    it('rewinds a partition it holds but has not read yet (a new member) at once, without waiting for its next message', async () => {
      const topic = `rewind-new-${rnd()}`;
      const groupId = `g-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 2 });
      const first = collector();
      const s1 = await consume(log, topic, groupId, first);
      await log.publish(topic, [1, 2, 3, 4].map((n) => msg(`q-${n}`, { n }, 'u-quiet')));
      await until('4 messages', h.waitMs, () => first.seen.length >= 4);
      await s1.stop();
      // The next member of the group starts after q-4 and the partition stays quiet: a rewind to
      // q-3 must not wait for a fifth message.
      const next = collector();
      const s2 = await consume(log, topic, groupId, next);
      s2.rewind(first.seen[0].partition, first.seen[2].offset);
      await until('q-3 and q-4 again', h.waitMs, () => next.seen.length >= 2);
      await sleep(300);
      expect(next.seen.map((m) => m.key)).toEqual(['q-3', 'q-4']);
    });

    it('lets a handler rewind its own partition: the message in hand is read again with the rest, in order', async () => {
      const topic = `rewind-own-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 2 });
      let rewound = false;
      const c = collector();
      const sub: GroupSubscription = await log.consume({
        topic,
        groupId: `g-${rnd()}`,
        fromBeginning: true,
        // Commits in rounds, as stream readers do: the rewound position must win over the message in hand.
        commitEveryMs: 100,
        onAssignment: c.onAssignment,
        handle: async (m) => {
          const n = JSON.parse(m.value).n;
          if (n === 4 && !rewound) {
            rewound = true;
            expect(sub.rewind(m.partition, c.seen[1].offset)).toBe(true);
            return; // not handled: the rewind reads it again
          }
          await c.handle(m);
        },
      });
      subs.push(sub);
      await log.publish(topic, [1, 2, 3, 4, 5].map((n) => msg(`o-${n}`, { n }, 'u-own')));
      await until('2 to 5 after 1 to 3', h.waitMs, () => c.seen.length >= 7);
      await sleep(300);
      expect(c.seen.map((m) => JSON.parse(m.value).n)).toEqual([1, 2, 3, 2, 3, 4, 5]);
    });

    it('commits a rewind at once: a member that leaves before reading again leaves the group there', async () => {
      const topic = `rewind-leave-${rnd()}`;
      const groupId = `g-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 2 });
      const first = collector();
      const s1 = await consume(log, topic, groupId, first);
      await log.publish(topic, [1, 2, 3, 4].map((n) => msg(`l-${n}`, { n }, 'u-leave')));
      await until('4 messages', h.waitMs, () => first.seen.length >= 4);
      await sleep(300); // their positions committed
      s1.rewind(first.seen[0].partition, first.seen[1].offset);
      await s1.stop();
      const next = collector();
      await consume(log, topic, groupId, next);
      await until('l-2 to l-4 again', h.waitMs, () => next.seen.length >= 3);
      await sleep(300);
      expect(next.seen.map((m) => m.key)).toEqual(['l-2', 'l-3', 'l-4']);
    });

    it('resumes a group from its committed position after a restart', async () => {
      const topic = `resume-${rnd()}`;
      const groupId = `g-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 2 });
      const c1 = collector();
      const s1 = await consume(log, topic, groupId, c1);
      await log.publish(topic, [1, 2, 3, 4].map((i) => msg(`k${i}`, i, `p${i}`)));
      await until('4 deliveries', h.waitMs, () => c1.seen.length >= 4);
      await s1.stop();
      await log.close();
      log = await h.open();
      await log.publish(topic, [5, 6].map((i) => msg(`k${i}`, i, `p${i}`)));
      const c2 = collector();
      await consume(log, topic, groupId, c2);
      await until('2 deliveries', h.waitMs, () => c2.seen.length >= 2);
      await sleep(300);
      expect(c2.seen.map((m) => m.key).sort()).toEqual(['k5', 'k6']);
    });

    it('with commitEveryMs, commits what was handled within that window and on stop: a restart resumes after it', async () => {
      const topic = `batched-${rnd()}`;
      const groupId = `g-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 2 });
      const c1 = collector();
      const s1 = await log.consume({ topic, groupId, fromBeginning: true, handle: c1.handle, onAssignment: c1.onAssignment, commitEveryMs: 100 });
      await log.publish(topic, [1, 2, 3].map((i) => msg(`k${i}`, i, `p${i}`)));
      await until('3 deliveries', h.waitMs, () => c1.seen.length >= 3);
      // Within the window (and a little more), the positions reach what was handled.
      await until('positions committed', h.waitMs, async () => (await log.groupPositions(groupId, topic)).every((p) => p.handled === p.end));
      await log.publish(topic, [4, 5].map((i) => msg(`k${i}`, i, `p${i}`)));
      await until('5 deliveries', h.waitMs, () => c1.seen.length >= 5);
      // Stopping commits what is pending at once.
      await s1.stop();
      expect((await log.groupPositions(groupId, topic)).every((p) => p.handled === p.end)).toBe(true);
      await log.publish(topic, [msg('k6', 6, 'p6')]);
      const c2 = collector();
      await consume(log, topic, groupId, c2);
      await until('1 delivery', h.waitMs, () => c2.seen.length >= 1);
      await sleep(300);
      expect(c2.seen.map((m) => m.key)).toEqual(['k6']);
    });

    it('starts a new group without fromBeginning at the end, and a group set with startGroupAtEnd there too', async () => {
      const topic = `end-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 2 });
      await log.publish(topic, [msg('old1', 1), msg('old2', 2)]);
      const atEnd = `g-${rnd()}`;
      await log.startGroupAtEnd(atEnd, topic);
      const c1 = collector();
      await consume(log, topic, atEnd, c1, true);
      const c2 = collector();
      await consume(log, topic, `g-${rnd()}`, c2, false);
      await log.publish(topic, [msg('new1', 3), msg('new2', 4)]);
      await until('both groups got the new messages', h.waitMs, () => c1.seen.length >= 2 && c2.seen.length >= 2);
      await sleep(300);
      expect(c1.seen.map((m) => m.key).sort()).toEqual(['new1', 'new2']);
      expect(c2.seen.map((m) => m.key).sort()).toEqual(['new1', 'new2']);
    });

    it("reports a group's positions: behind while a message waits in its handler, level with the end once handled", async () => {
      const topic = `positions-${rnd()}`;
      const groupId = `g-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 2 });
      const behind = (ps: { handled: number; end: number }[]) => ps.filter((p) => p.handled < p.end).length;
      // A group that never ran: nothing handled, nothing to handle.
      expect(await log.groupPositions(groupId, topic)).toEqual([
        { partition: 0, handled: 0, end: 0 },
        { partition: 1, handled: 0, end: 0 },
      ]);
      let release = () => {};
      const held = new Promise<void>((r) => (release = r));
      const c = collector(() => held);
      await consume(log, topic, groupId, c);
      const key = 'held';
      await log.publish(topic, [msg(key, 1)]);
      const p = partitionFor(key, 2);
      const during = await log.groupPositions(groupId, topic);
      expect(during[p]).toEqual({ partition: p, handled: 0, end: 1 });
      expect(behind(during)).toBe(1);
      release();
      await until('the group handled the message', h.waitMs, async () => behind(await log.groupPositions(groupId, topic)) === 0);
      expect((await log.groupPositions(groupId, topic))[p]).toEqual({ partition: p, handled: 1, end: 1 });
    });

    it('tails from the beginning and from a timestamp, calls onCaughtUp, then follows new messages', async () => {
      const topic = `tail-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 3 });
      let emptyCaughtUp = false;
      const empty = await log.tail({ topic, handle: async () => {}, onCaughtUp: () => (emptyCaughtUp = true) });
      subs.push(empty);
      await until('caught up on an empty topic', h.waitMs, () => emptyCaughtUp);

      await log.publish(topic, [1, 2, 3, 4, 5].map((i) => msg(`a${i}`, i, `u${i}`)));
      await sleep(100);
      const ts = Date.now();
      await sleep(100);
      await log.publish(topic, [1, 2, 3].map((i) => msg(`b${i}`, i, `u${i}`)));

      const all = await readAll(log, topic, h.waitMs);
      expect(all.map((m) => m.key).sort()).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'b1', 'b2', 'b3']);
      const later = await readAll(log, topic, h.waitMs, ts);
      expect(later.map((m) => m.key).sort()).toEqual(['b1', 'b2', 'b3']);
      for (const m of later) expect(m.timestamp).toBeGreaterThanOrEqual(ts);

      const live: LogMessage[] = [];
      let caughtUpAt = -1;
      subs.push(
        await log.tail({
          topic,
          fromTimestamp: ts,
          handle: async (m) => {
            live.push(m);
          },
          onCaughtUp: () => (caughtUpAt = live.length),
        }),
      );
      await until('caught up', h.waitMs, () => caughtUpAt >= 0);
      expect(caughtUpAt).toBe(3);
      await log.publish(topic, [msg('c1', 1, 'u1')]);
      await until('the live message', h.waitMs, () => live.some((m) => m.key === 'c1'));
    });

    it('keeps only the newest value per key on a compacted topic', async () => {
      const topic = `compact-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 1, compacted: true, retentionMs: 30 * 24 * 3600 * 1000 });
      await log.publish(topic, [msg('k1', 'v1'), msg('k2', 'v1'), msg('k1', 'v2')]);
      await log.publish(topic, [msg('k1', 'v3'), msg('k3', 'v1')]);
      const deadline = Date.now() + h.compactionWaitMs;
      let kept: string[] = [];
      for (let round = 0; ; round++) {
        // Kafka never compacts the active segment: a later message (after segment.ms) rolls it.
        await sleep(round === 0 ? 300 : 1500);
        await log.publish(topic, [msg(`roll-${round}`, 'x')]);
        await h.compact(log);
        const all = await readAll(log, topic, h.waitMs);
        kept = all.filter((m) => !m.key.startsWith('roll-')).map((m) => `${m.key}=${JSON.parse(m.value)}`);
        if (kept.length === 3 || Date.now() > deadline) break;
      }
      expect(kept).toEqual(['k2=v1', 'k1=v3', 'k3=v1']);
    });

    it('erases the keys a caller names on a compacted topic (Kafka: without reading it)', async () => {
      const topic = `erase-keys-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 3, compacted: true });
      await log.publish(topic, [msg('u1', 'u1 v1', 'u1'), msg('u2', 'u2 v1', 'u2'), msg('u1', 'u1 v2', 'u1')]);
      expect(await log.eraseMessages(topic, { partitionKey: 'u1', keys: ['u1'], matches: (v) => v.includes('u1') })).toBeGreaterThanOrEqual(1);
      const last = new Map((await readAll(log, topic, h.waitMs)).map((m) => [m.key, m.value]));
      expect([...last].filter(([, v]) => v !== '').map(([k]) => k)).toEqual(['u2']);
    });

    it('carries the request id in a header and runs handlers inside that request context', async () => {
      const topic = `ctx-${rnd()}`;
      await log.ensureTopic({ name: topic, partitions: 1 });
      const seenIds: (string | undefined)[] = [];
      const c = collector((m) => {
        seenIds.push(currentRequestId());
        expect(m.headers[REQUEST_ID_HEADER]).toBe('req-contract-1');
      });
      await consume(log, topic, `g-${rnd()}`, c);
      await runWithRequestContext({ requestId: 'req-contract-1' }, () => log.publish(topic, [msg('x', 1)]));
      await until('delivery', h.waitMs, () => c.seen.length >= 1);
      expect(seenIds).toEqual(['req-contract-1']);
      expect(c.seen[0].headers).toEqual({ [REQUEST_ID_HEADER]: 'req-contract-1' });
    });

    describe('tenant slices', () => {
      const tenantMsg = (tenant: string, user: string, n: number): OutgoingMessage => ({
        key: `${tenant}-${user}-${n}`,
        value: JSON.stringify({ owner: tenant, user, n }),
        partitionKey: user,
        tenant,
      });
      const sliced = (name: string) => ({ name, partitions: 3, compacted: true, retentionMs: 30 * 24 * 3600 * 1000, tenants: { partitions: 3, field: 'owner' } });

      it("erases one user's messages from the topic and the tenant's slice (gone, or a tombstone the cleaner applies), leaving everyone else's", async () => {
        const topic = `erase-${rnd()}`;
        await log.ensureTopic(sliced(topic));
        const a = `ta${rnd()}`;
        for (let n = 0; n < 3; n++) await log.publish(topic, [tenantMsg(a, 'u1', n), tenantMsg(a, 'u2', n)]);
        const erased = await log.eraseMessages(topic, { partitionKey: 'u1', tenant: a, matches: (v) => (JSON.parse(v) as { user: string }).user === 'u1' });
        expect(erased).toBeGreaterThanOrEqual(3);
        for (const tenant of [undefined, a]) {
          const all = await readAll(log, topic, h.waitMs, undefined, tenant);
          // What a compacted topic keeps per key: the last message (a tombstone removes the key).
          const last = new Map(all.map((m) => [m.key, m.value]));
          const live = [...last].filter(([, v]) => v !== '').map(([k]) => k);
          expect(live.sort()).toEqual([0, 1, 2].map((n) => `${a}-u2-${n}`));
        }
        // Nothing left to erase the second time round on the embedded log; Kafka may tombstone again until the cleaner ran.
        await expect(log.eraseMessages(topic, { partitionKey: 'u2', tenant: a, matches: () => false })).resolves.toBe(0);
      });

      it("gives a tenant's tail and group only that tenant's messages, in order per key, while the whole topic keeps everyone's", async () => {
        const topic = `sliced-${rnd()}`;
        await log.ensureTopic(sliced(topic));
        const [a, b] = [`ta${rnd()}`, `tb${rnd()}`];
        await log.ensureTenant(topic, a);
        const group = collector();
        subs.push(await log.consume({ topic, tenant: a, groupId: `g-${rnd()}`, fromBeginning: true, handle: group.handle }));
        for (let n = 0; n < 4; n++) await log.publish(topic, [tenantMsg(a, 'u1', n), tenantMsg(b, 'u1', n), tenantMsg(b, 'u2', n), tenantMsg(a, 'u2', n)]);

        const mine = await readAll(log, topic, h.waitMs, undefined, a);
        expect(mine.map((m) => JSON.parse(m.value).owner)).toEqual(Array(8).fill(a));
        for (const u of ['u1', 'u2']) expect(mine.filter((m) => JSON.parse(m.value).user === u).map((m) => JSON.parse(m.value).n)).toEqual([0, 1, 2, 3]);
        for (const m of mine) expect(m.tenant).toBe(a);
        await until("the group's 8 messages of its tenant", h.waitMs, () => group.seen.length >= 8);
        await sleep(300);
        expect(group.seen.map((m) => JSON.parse(m.value).owner)).toEqual(Array(8).fill(a));
        const everyone = await readAll(log, topic, h.waitMs);
        expect(everyone).toHaveLength(16);
      });

      it("starts a slice's group at the slice's end, and a dropped slice holds nothing", async () => {
        const topic = `sliced-${rnd()}`;
        await log.ensureTopic(sliced(topic));
        const t = `tc${rnd()}`;
        await log.publish(topic, [tenantMsg(t, 'u1', 0)]);
        const groupId = `g-${rnd()}`;
        await log.startGroupAtEnd(groupId, topic, t);
        const c = collector();
        subs.push(await log.consume({ topic, tenant: t, groupId, fromBeginning: true, handle: c.handle }));
        await log.publish(topic, [tenantMsg(t, 'u1', 1)]);
        await until('the new message', h.waitMs, () => c.seen.length >= 1);
        await sleep(300);
        expect(c.seen.map((m) => JSON.parse(m.value).n)).toEqual([1]);
        await Promise.all(subs.splice(0).map((s) => s.stop()));

        await log.dropTenant(topic, t);
        expect(await readAll(log, topic, h.waitMs, undefined, t)).toEqual([]);
      });

      it('refuses a message without a tenant on a tenant-scoped topic', async () => {
        const topic = `sliced-${rnd()}`;
        await log.ensureTopic(sliced(topic));
        await expect(log.publish(topic, [msg('k', 1)])).rejects.toThrow(/needs a tenant/);
      });

      it('moves messages written before the topic had slices into their slices, once', async () => {
        const topic = `legacy-${rnd()}`;
        const [a, b] = [`ta${rnd()}`, `tb${rnd()}`];
        await log.ensureTopic({ name: topic, partitions: 3, compacted: true, retentionMs: 30 * 24 * 3600 * 1000 });
        const old = (t: string, n: number): OutgoingMessage => ({ key: `${t}-${n}`, value: JSON.stringify({ owner: t, n }), partitionKey: `user-${n % 2}` });
        await log.publish(topic, [old(a, 0), old(b, 0), old(a, 1), old(b, 1), old(a, 2)]);
        await log.ensureTopic(sliced(topic));
        await log.migrateTenants(topic);
        expect(await log.migrateTenants(topic)).toBe(0);
        const slice = await readAll(log, topic, h.waitMs, undefined, a);
        expect(slice.map((m) => JSON.parse(m.value).n).sort()).toEqual([0, 1, 2]);
        expect((await readAll(log, topic, h.waitMs, undefined, b)).map((m) => m.key).sort()).toEqual([`${b}-0`, `${b}-1`]);
      });
    });

    it('reports healthy while open', async () => {
      expect(await log.healthy()).toBe(true);
    });
  });
}
