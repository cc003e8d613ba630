/**
 * A crash between two of an ingestion's writes on the MongoDB-API store (no transactions): the
 * store seam fails every write of one collection, as if the process died there, and a new
 * process (new store connection, new outbox and relay) takes over. Whichever write it stopped at,
 * the relay and the retried request end with every record, key, stat and earlier version stored,
 * exactly as an uninterrupted run stores them, and every event on the log once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedEventLog } from '@wellstream/bus/adapters';
import { customerEventsTopic, sourceDetectionsTopic } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import { Outbox } from '@wellstream/outbox';
import type { Collection, Doc, DocumentStore } from '@wellstream/store';
import { MongoDocumentStore } from '@wellstream/store/adapters';
import { realServers, uniqueTestName } from '@wellstream/testing';
import { BatchByKey } from '../src/records/batch-by-key';
import { ingestRecords, IngestDeps, MAX_BATCH_RECORDS } from '../src/records/ingest-records/ingest-records.usecase';
import { RECORD_KEYS_COLLECTION, RecordKeysRepository } from '../src/records/record-keys.repository';
import { RECORDS_COLLECTION, RecordRepository } from '../src/records/record.repository';
import type { ProjectedUser } from '../src/users/user-projection';
import { USER_PROJECTION_SPEC, UserProjectionRepository } from '../src/users/user-projection.repository';

jest.setTimeout(120_000);
const logger = createLogger('crash-test');

/** The store, except that every bulk write to `failing.collection` fails while it is set. */
function seam(store: DocumentStore, failing: { collection?: string }): DocumentStore {
  return {
    collection: async <T extends Doc>(spec: Parameters<DocumentStore['collection']>[0]) => {
      const inner = await store.collection<T>(spec);
      return new Proxy(inner, {
        get(target, prop) {
          if (prop === 'bulkUpsert' && failing.collection === spec.name) return async () => Promise.reject(new Error(`process died writing ${spec.name}`));
          const v = Reflect.get(target, prop, target);
          return typeof v === 'function' ? v.bind(target) : v;
        },
      }) as Collection<T>;
    },
    healthy: () => store.healthy(),
    close: () => store.close(),
  };
}

describe('ingestion on the MongoDB store: a crash between two writes', () => {
  let dir: string;
  let log: EmbeddedEventLog;
  let dbName: string;
  const opened: { store: MongoDocumentStore; outbox: Outbox }[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingestion-crash-'));
    log = new EmbeddedEventLog({ file: path.join(dir, 'events.db'), logger });
    for (const t of [customerEventsTopic, sourceDetectionsTopic]) await log.ensureTopic(t.spec);
    dbName = uniqueTestName('crash');
  });
  afterAll(async () => {
    for (const { outbox, store } of opened) {
      await outbox.stop();
      await store.close();
    }
    await log.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** One records process over the test's database; `failing` breaks its writes to one collection. */
  async function processOf(failing: { collection?: string } = {}, staleMs = 60_000) {
    const store = new MongoDocumentStore({ url: realServers().mongoUrl, dbName, logger });
    const seen = seam(store, failing);
    const outbox = await Outbox.open(seen, { eventLog: log, logger, staleMs, drainMs: 60_000 });
    opened.push({ store, outbox });
    const deps: IngestDeps = {
      records: await RecordRepository.open(seen),
      keys: await RecordKeysRepository.open(seen),
      users: await UserProjectionRepository.open(seen),
      outbox,
      batches: new BatchByKey(MAX_BATCH_RECORDS),
      clock: { now: () => new Date('2026-03-01T12:00:00.000Z') },
      counts: { add: () => undefined },
    };
    return { store, outbox, deps };
  }

  const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString().replace('.000Z', 'Z');
  /** 20 records already stored and changed now (earlier versions kept), 80 new ones. */
  const body = (value: number) => ({
    records: Array.from({ length: 100 }, (_, n) => ({ type: 'measurement', source: { type: 'withings' }, log_id: `m-${n}`, start_time: at(n), end_time: at(n), metrics: [{ type: 'body_weight', unit: 'kg', value: n < 20 ? value + n / 100 : 60 + n / 100, origin: 'device' }] })),
  });
  const first = { records: body(50).records.slice(0, 20) };
  const user = (uid: string): ProjectedUser => ({ _id: `user-${uid}`, uid, organization_id: 'org-1', customer_id: 'cus-1', status: 'active', timezone: 'Europe/Berlin', timezone_origin: 'profile', mobile_token: `mt-${uid}-0123456789abcdef`, updated_at: '2026-03-01T00:00:00.000Z' });
  /** Each event of the user on the log, as `log_id value`. */
  const eventsOf = async (userId: string) => {
    const seen: string[] = [];
    let caughtUp!: () => void;
    const done = new Promise<void>((resolve) => (caughtUp = resolve));
    const sub = await log.tail({ topic: customerEventsTopic.spec.name, handle: async (m) => void seen.push(m.value), onCaughtUp: () => caughtUp() });
    await done;
    await sub.stop();
    return seen.map((v) => JSON.parse(v)).filter((e) => e.user_id === userId).map((e) => `${e.payload.log_id} ${e.payload.metrics[0].value}`);
  };
  /** What the user holds, by log id and value (ids are derived from the user, so two users compare this way). */
  async function holdings(store: MongoDocumentStore, u: ProjectedUser) {
    type Held = Doc & { user_id: string; kind?: string; record_id?: string | null; payload?: { log_id: string; metrics: { value: number }[] }; checksum?: string; deleted_at?: string | null };
    const records = await (await store.collection<Held>({ name: RECORDS_COLLECTION })).find({ user_id: u._id });
    const keys = await (await store.collection<Held>({ name: RECORD_KEYS_COLLECTION })).find({ user_id: u._id });
    const logId = new Map(records.map((r) => [r._id, r.payload!.log_id]));
    const of = (d: Held) => `${d.payload!.log_id} ${d.payload!.metrics[0].value}`;
    return {
      records: records.map((r) => `${of(r)} ${r.deleted_at}`).sort(),
      content: keys.filter((k) => k.kind === 'content').map((k) => logId.get(k.record_id ?? '') ?? String(k.record_id)).sort(),
      stats: keys.filter((k) => k.kind === 'stats').map(({ _id: _key, user_id: _user, ...rest }) => rest),
      versions: keys.filter((k) => k.kind === 'version').map((k) => `${logId.get(k.record_id!)} ${of(k)}`).sort(),
    };
  }

  /** The same two requests, uninterrupted, for another user: what a crash must end in. */
  async function reference(uid: string) {
    const { deps, outbox, store } = await processOf();
    const u = user(uid);
    await (await store.collection<ProjectedUser>(USER_PROJECTION_SPEC)).insertOne(u);
    await ingestRecords(deps, u, first);
    await ingestRecords(deps, u, body(51));
    await outbox.drain();
    return { held: await holdings(store, u), events: await eventsOf(u._id) };
  }

  it.each([
    ['after the records, before their keys, stats and versions', RECORD_KEYS_COLLECTION],
    ['after the outbox entry, before the records', RECORDS_COLLECTION],
  ])('dies %s: the relay and the retried request end with everything stored and every event once', async (_label, collection) => {
    const expected = await reference(`ref-${collection}`);
    const u = user(`crash-${collection}`);
    const failing: { collection?: string } = {};
    const dying = await processOf(failing);
    await (await dying.store.collection<ProjectedUser>(USER_PROJECTION_SPEC)).insertOne(u);
    await ingestRecords(dying.deps, u, first);
    failing.collection = collection;
    await expect(ingestRecords(dying.deps, u, body(51))).rejects.toThrow(`process died writing ${collection}`);

    // A new process: its relay finds the dead writer's entry (stale at once here) and finishes it.
    const next = await processOf({}, 0);
    await next.outbox.drain();
    // The client retries the request it got no answer to.
    const answer = await ingestRecords(next.deps, u, body(51));
    expect(answer).toHaveLength(100);
    await next.outbox.drain();
    const held = await holdings(next.store, u);
    // 100 records; content keys: 100 held, 20 released by the changes; 20 earlier versions; one stats document.
    expect([held.records.length, held.content.length, held.versions.length, held.stats.length]).toEqual([100, 120, 20, 1]);
    expect(held).toEqual(expected.held);
    // Every version once: 20 first versions, 20 changes, 80 new records.
    const events = await eventsOf(u._id);
    expect(events).toHaveLength(120);
    expect(events.sort()).toEqual([...expected.events].sort());
  });
});
