/**
 * The outbox on the embedded adapters (SQLite store, embedded log): a write answers without
 * waiting for the log, publishes after, keeps nothing once published, survives a log outage and a
 * crashed writer, and keeps write order.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EventLog, LogMessage, OutgoingMessage } from '@wellstream/bus';
import { EmbeddedEventLog } from '@wellstream/bus/adapters';
import { createLogger } from '@wellstream/logging';
import { Collection, DocumentStore } from '@wellstream/store';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { Outbox, PendingMessage } from '../src';

const logger = createLogger('outbox-test');
const TOPIC = 'outbox-test';

interface Thing {
  _id: string;
  n: number;
}
const thing = (_id: string, n: number): Thing => ({ _id, n });

describe('outbox', () => {
  let dir: string;
  let log: EmbeddedEventLog;
  let store: SqliteDocumentStore;
  let things: Collection<Thing>;
  const gate = { down: false, hang: false };
  /** Publishes held by `hang`; released (to fail) at the end of a test. */
  const hung: (() => void)[] = [];
  let flaky: EventLog;
  const outboxes: Outbox[] = [];
  const open = async (staleMs = 30_000, relayLeaseMs?: number) => {
    const o = await Outbox.open(store, { eventLog: flaky, logger, staleMs, drainMs: 60_000, relayLeaseMs });
    outboxes.push(o);
    return o;
  };
  const msg = (id: string, n: number, extra: Record<string, unknown> = {}): PendingMessage => ({
    topic: TOPIC,
    message: { key: id, partitionKey: 'p', value: JSON.stringify({ id, n }), ...extra } as OutgoingMessage,
    confirmedBy: { collection: 'things', filter: { _id: id, n } },
  });
  const published = async (): Promise<LogMessage[]> => {
    const seen: LogMessage[] = [];
    // Stop once caught up, not on a timer: a reader resting on the long-read budget takes timers too.
    let caughtUp!: () => void;
    const done = new Promise<void>((resolve) => (caughtUp = resolve));
    const sub = await log.tail({ topic: TOPIC, handle: async (m) => void seen.push(m), onCaughtUp: () => caughtUp() });
    await done;
    await sub.stop();
    return seen;
  };
  const rawEntries = async () => (await store.collection<{ _id: string; state: string }>({ name: 'outbox' })).find({});

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-test-'));
    log = new EmbeddedEventLog({ file: path.join(dir, 'events.db'), logger });
    flaky = new Proxy(log, {
      get: (target, prop) =>
        prop === 'publish'
          ? async (topic: string, messages: OutgoingMessage[]) => {
              if (gate.hang) await new Promise<void>((resolve) => hung.push(resolve));
              if (gate.down) throw new Error('log down');
              return target.publish(topic, messages);
            }
          : Reflect.get(target, prop, target),
    });
  });
  beforeEach(async () => {
    gate.down = false;
    gate.hang = false;
    await log.ensureTopic({ name: TOPIC, partitions: 1 });
    store = new SqliteDocumentStore(path.join(dir, `store-${Date.now()}-${Math.random()}.db`));
    things = await store.collection<Thing>({ name: 'things' });
  });
  afterEach(async () => {
    gate.hang = false;
    gate.down = true;
    for (const release of hung.splice(0)) release();
    for (const o of outboxes.splice(0)) await o.stop();
    await store.close();
  });
  afterAll(async () => {
    await log.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('publishes the whole message after the change, and keeps nothing once published', async () => {
    const outbox = await open();
    const before = (await published()).length;
    await outbox.write([msg('a1', 1, { tenant: 'org-1', headers: { 'x-extra': 'yes' } })], () => things.insertOne({ _id: 'a1', n: 1 }));
    await outbox.drain();
    const seen = (await published()).slice(before);
    expect(seen.map((m) => [m.key, m.value])).toEqual([['a1', JSON.stringify({ id: 'a1', n: 1 })]]);
    expect(seen[0].headers['x-extra']).toBe('yes');
    expect(await rawEntries()).toEqual([]);
  });

  it('answers without waiting for the log; what the log refused is published once it is back, in order', async () => {
    const outbox = await open(30_000, 100);
    const before = (await published()).length;
    gate.hang = true;
    const started = Date.now();
    await outbox.write([msg('b1', 1)], () => things.insertOne({ _id: 'b1', n: 1 }));
    expect(Date.now() - started).toBeLessThan(1000);
    gate.hang = false;
    gate.down = true;
    // The hung publish holds the one running drain; a fresh relay over the same store takes over
    // once the hung one's lease has expired.
    await new Promise((r) => setTimeout(r, 150));
    const relay = await open();
    for (let i = 2; i <= 4; i++) await outbox.write([msg(`b${i}`, i)], () => things.insertOne({ _id: `b${i}`, n: i }));
    await expect(relay.drain()).rejects.toThrow('log down');
    expect(await rawEntries()).toHaveLength(4);
    gate.down = false;
    await relay.drain();
    expect((await published()).slice(before).map((m) => m.key)).toEqual(['b1', 'b2', 'b3', 'b4']);
    expect(await rawEntries()).toEqual([]);
  });

  it('with publishWithinMs, answers once the messages are on the log, or after that long when the log does not take them', async () => {
    const outbox = await open();
    const end = async () => (await log.groupPositions('nobody', TOPIC))[0].end;
    const before = await end();
    await outbox.write([msg('w1', 1)], () => things.insertOne({ _id: 'w1', n: 1 }), { publishWithinMs: 5_000 });
    // No drain, no wait: the write resolved after its message was appended.
    expect(await end()).toBe(before + 1);
    gate.hang = true;
    const started = Date.now();
    await outbox.write([msg('w2', 2)], () => things.insertOne({ _id: 'w2', n: 2 }), { publishWithinMs: 200 });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(190);
    expect(took).toBeLessThan(2_000);
    expect(await end()).toBe(before + 1);
    expect(await rawEntries()).toHaveLength(1);
  });

  it('with publishWithinMs, waits for its own entries even when an older writer still holds the relay back', async () => {
    const outbox = await open();
    const end = async () => (await log.groupPositions('nobody', TOPIC))[0].end;
    const before = await end();
    let releaseA = () => {};
    const aMayStore = new Promise<void>((r) => (releaseA = r));
    // A's entry is written first and stays prepared while its change is under way.
    const a = outbox.write([msg('c1', 1)], async () => {
      await aMayStore;
      await things.insertOne({ _id: 'c1', n: 1 });
    });
    while ((await rawEntries()).length === 0) await new Promise((r) => setTimeout(r, 5));
    let bAnswered = false;
    const b = outbox.write([msg('c2', 2)], () => things.insertOne({ _id: 'c2', n: 2 }), { publishWithinMs: 10_000 }).then(() => (bAnswered = true));
    await new Promise((r) => setTimeout(r, 150));
    // B is stored but not on the log yet (order per key: A's prepared entry comes first), so B waits.
    expect([bAnswered, await end()]).toEqual([false, before]);
    releaseA();
    await Promise.all([a, b]);
    expect(await end()).toBe(before + 2);
  });

  it('publishes each entry once and in write order when two relays share the outbox (replicas)', async () => {
    const [a, b] = [await open(), await open()];
    const before = (await published()).length;
    // Two writers, each one write after another, alternating between the replicas' outboxes; every
    // write starts its replica's relay, so the two relays run at the same time.
    const writer = async (w: string) => {
      for (let i = 0; i < 60; i++) await (i % 2 ? a : b).write([msg(`${w}${i}`, i)], () => things.insertOne({ _id: `${w}${i}`, n: i }));
    };
    await Promise.all([writer('x'), writer('y')]);
    while ((await rawEntries()).length > 0) await new Promise((r) => setTimeout(r, 20));
    await Promise.all([a.drain(), b.drain()]);
    const keys = (await published()).slice(before).map((m) => m.key);
    expect(keys.length).toBe(120);
    expect(new Set(keys).size).toBe(120);
    for (const w of ['x', 'y']) expect(keys.filter((k) => k.startsWith(w))).toEqual(Array.from({ length: 60 }, (_, i) => `${w}${i}`));
  });

  it('drops the messages of a change that failed', async () => {
    const outbox = await open();
    const before = (await published()).length;
    await things.insertOne({ _id: 'c1', n: 1 });
    await expect(outbox.write([msg('c1', 2)], () => things.insertOne({ _id: 'c1', n: 2 }))).rejects.toThrow();
    await outbox.drain();
    expect((await published()).slice(before)).toEqual([]);
    expect(await rawEntries()).toEqual([]);
  });

  it('resolves what a crashed writer left: published if its change was stored, dropped if not; later entries wait', async () => {
    const before = (await published()).length;
    // A writer that died after storing d1 and one that died before storing d2 (entries still prepared).
    const crashed = await open();
    gate.down = true;
    const dies = (stored: boolean, id: string) =>
      crashed
        .write([msg(id, 1)], async () => {
          if (stored) await things.insertOne({ _id: id, n: 1 });
          throw new Error('process died');
        })
        .catch(() => undefined);
    const entries = await store.collection<{ _id: string; state: string }>({ name: 'outbox' });
    await dies(true, 'd1');
    await dies(false, 'd2');
    // settleFailed already decided; rewind to the state a crash leaves: both prepared.
    await things.insertOne({ _id: 'keep', n: 0 });
    await entries.deleteMany({});
    const fresh = await open(60_000);
    await fresh.write([msg('d1', 1)], async () => undefined);
    await fresh.write([msg('d2', 1)], async () => undefined);
    await entries.updateMany({}, { $set: { state: 'prepared' } });
    await fresh.write([msg('d3', 1)], () => things.insertOne({ _id: 'd3', n: 1 }));
    gate.down = false;
    // Not stale yet: the prepared head holds d3 back (it must not overtake them).
    await fresh.drain();
    expect((await published()).slice(before)).toEqual([]);
    const relay = await open(0);
    await relay.drain();
    expect((await published()).slice(before).map((m) => m.key)).toEqual(['d1', 'd3']);
    expect(await rawEntries()).toEqual([]);
  });

  it('stores whole-document changes and their entries in one transaction where the store has them', async () => {
    const outbox = await open();
    const before = (await published()).length;
    gate.down = true;
    await outbox.writeDocuments([msg('f1', 1), msg('f2', 2)], { sets: [{ collection: 'things', docs: [thing('f1', 1), thing('f2', 2)] }], apply: () => Promise.reject(new Error('not taken')) });
    // Written ready, as one entry: nothing for the relay to resolve.
    expect((await rawEntries()).map((e) => e.state)).toEqual(['ready']);
    expect(await things.find({}, { sort: { _id: 1 } })).toEqual([{ _id: 'f1', n: 1 }, { _id: 'f2', n: 2 }]);
    // A change that fails stores neither its documents nor its entries (a collection never opened).
    // (Not toThrow: better-sqlite3's error class comes from another realm under jest's workers.)
    await expect(outbox.writeDocuments([msg('f3', 3)], { sets: [{ collection: 'things', docs: [thing('f3', 3)] }, { collection: 'never_opened', docs: [{ _id: 'x' }] }], apply: async () => undefined })).rejects.toMatchObject({ message: expect.stringContaining('no such table') });
    expect(await things.findOne({ _id: 'f3' })).toBeNull();
    expect(await rawEntries()).toHaveLength(1);
    gate.down = false;
    await outbox.drain();
    expect((await published()).slice(before).map((m) => m.key)).toEqual(['f1', 'f2']);
    expect(await rawEntries()).toEqual([]);
  });

  it('takes the prepared and ready steps for whole-document changes where the store has no transactions', async () => {
    const plain: DocumentStore = { collection: (spec) => store.collection(spec), healthy: () => store.healthy(), close: async () => undefined };
    const outbox = await Outbox.open(plain, { eventLog: flaky, logger, drainMs: 60_000 });
    outboxes.push(outbox);
    const before = (await published()).length;
    const states: string[][] = [];
    await outbox.writeDocuments([msg('g1', 1)], {
      sets: [{ collection: 'things', docs: [thing('g1', 1)] }],
      apply: async () => {
        states.push((await rawEntries()).map((e) => e.state));
        await things.insertOne({ _id: 'g1', n: 1 });
      },
    });
    expect(states).toEqual([['prepared']]);
    await outbox.drain();
    expect((await published()).slice(before).map((m) => m.key)).toEqual(['g1']);
    expect(await rawEntries()).toEqual([]);
  });

  it("keeps a write's messages as one entry: written, made ready and removed as one document, published in order", async () => {
    const plain: DocumentStore = { collection: (spec) => store.collection(spec), healthy: () => store.healthy(), close: async () => undefined };
    const outbox = await Outbox.open(plain, { eventLog: flaky, logger, drainMs: 60_000 });
    outboxes.push(outbox);
    const before = (await published()).length;
    const during: number[] = [];
    const ids = Array.from({ length: 50 }, (_, i) => `h${i}`);
    await outbox.write(
      ids.map((id, i) => msg(id, i)),
      async () => {
        during.push((await rawEntries()).length);
        await things.bulkUpsert(ids.map((id, i) => thing(id, i)));
      },
    );
    expect(during).toEqual([1]);
    await outbox.drain();
    expect((await published()).slice(before).map((m) => m.key)).toEqual(ids);
    expect(await rawEntries()).toEqual([]);
  });

  it("publishes the part of a crashed writer's batch whose change was stored, and drops the rest", async () => {
    const before = (await published()).length;
    const crashed = await open(60_000);
    // The change stores two of its three documents and fails: the entry stays prepared, as a crash leaves it.
    const change = async () => {
      await things.bulkUpsert([thing('p1', 1), thing('p3', 1)]);
      throw new Error('died before p2');
    };
    await expect(crashed.write([msg('p1', 1), msg('p2', 1), msg('p3', 1)], change)).rejects.toThrow('died before p2');
    expect((await rawEntries()).map((e) => e.state)).toEqual(['prepared']);
    const relay = await open(0);
    await relay.drain();
    expect((await published()).slice(before).map((m) => m.key)).toEqual(['p1', 'p3']);
    expect(await rawEntries()).toEqual([]);
  });

  it('splits a write too large for one document into entries, and publishes them all in order', async () => {
    const plain: DocumentStore = { collection: (spec) => store.collection(spec), healthy: () => store.healthy(), close: async () => undefined };
    const outbox = await Outbox.open(plain, { eventLog: flaky, logger, drainMs: 60_000 });
    outboxes.push(outbox);
    const before = (await published()).length;
    const ids = Array.from({ length: 60 }, (_, i) => `big${i}`);
    const during: number[] = [];
    // 60 messages of 100 KB: 6 MB of JSON, more than one entry may hold.
    await outbox.write(
      ids.map((id, i) => msg(id, i, { headers: { pad: 'x'.repeat(100_000) } })),
      async () => {
        during.push((await rawEntries()).length);
        await things.bulkUpsert(ids.map((id, i) => thing(id, i)));
      },
    );
    expect(during[0]).toBeGreaterThan(1);
    await outbox.drain();
    expect((await published()).slice(before).map((m) => m.key)).toEqual(ids);
    expect(await rawEntries()).toEqual([]);
  });

  it('splits a whole-document change too large for one entry into entries written in its transaction, and publishes them all in order', async () => {
    const outbox = await open();
    const before = (await published()).length;
    const ids = Array.from({ length: 60 }, (_, i) => `bigdoc${i}`);
    gate.down = true;
    await outbox.writeDocuments(
      ids.map((id, i) => msg(id, i, { headers: { pad: 'x'.repeat(100_000) } })),
      { sets: [{ collection: 'things', docs: ids.map((id, i) => thing(id, i)) }], apply: () => Promise.reject(new Error('not taken')) },
    );
    const entries = await rawEntries();
    expect(entries.length).toBeGreaterThan(1);
    expect(entries.every((e) => e.state === 'ready')).toBe(true);
    gate.down = false;
    await outbox.drain();
    expect((await published()).slice(before).map((m) => m.key)).toEqual(ids);
    expect(await rawEntries()).toEqual([]);
  });

  it('reports its backlog', async () => {
    const outbox = await open();
    gate.down = true;
    await outbox.write([msg('e1', 1), msg('e2', 1)], () => things.insertOne({ _id: 'e1', n: 1 }).then(() => things.insertOne({ _id: 'e2', n: 1 })));
    await new Promise((r) => setTimeout(r, 20));
    const backlog = await outbox.backlog();
    // One entry per write.
    expect(backlog.count).toBe(1);
    expect(backlog.oldestAgeMs).toBeGreaterThanOrEqual(15);
  });
});
