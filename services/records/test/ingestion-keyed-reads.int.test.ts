/**
 * Ingestion reads what it needs by `_id` and the server serves each of those reads from its `_id`
 * index, so a request costs the same whatever the user's history holds. Every query a request
 * sends (finds, and the filters of its updates and deletes) is explained on the real server: on
 * FerretDB the SQLite plan must search the `_id` index, on MongoDB it must not be a collection
 * scan. Upstream FerretDB v1.24.2 scans for every one of them (deploy/servers builds it patched).
 * The outbox's own tables are left out: a backlog, drained to a few documents.
 */
import type { mongo } from 'mongoose';
import { createLogger } from '@wellstream/logging';
import { ingestRecords, IngestDeps } from '../src/records/ingest-records/ingest-records.usecase';
import type { ProjectedUser } from '../src/users/user-projection';
import { openMongoIngestion, MongoIngestion } from './mongo-ingestion.fixture';
import { USER_PROJECTION_SPEC } from '../src/users/user-projection.repository';

jest.setTimeout(120_000);
const logger = createLogger('keyed-reads-test');

type Query = { collection: string; filter: Record<string, unknown> };

describe('ingestion on the MongoDB store: every read by _id, from the _id index', () => {
  let fixture: MongoIngestion;
  let store: MongoIngestion['store'];
  let outbox: MongoIngestion['outbox'];
  let deps: IngestDeps;
  let db: mongo.Db;
  const queries: Query[] = [];
  let watching = false;

  beforeAll(async () => {
    fixture = await openMongoIngestion('keyed', logger);
    ({ store, outbox, deps } = fixture);
    const client = fixture.client;
    db = client.db(); // (the database the first watched command names replaces it)
    client.on('commandStarted', (e) => {
      if (!watching) return;
      db = client.db(e.databaseName);
      const collection = String(e.command[e.commandName]);
      if (collection.startsWith('outbox')) return;
      const c = e.command as Record<string, unknown>;
      const filters: unknown[] =
        e.commandName === 'find' ? [c.filter]
        : e.commandName === 'findAndModify' ? [c.query]
        : e.commandName === 'update' ? (c.updates as { q: unknown }[]).map((u) => u.q)
        : e.commandName === 'delete' ? (c.deletes as { q: unknown }[]).map((d) => d.q)
        : [];
      for (const filter of filters) queries.push({ collection, filter: (filter ?? {}) as Record<string, unknown> });
    });
  });
  afterAll(() => fixture.close());

  let serial = 0;
  const measurement = () => {
    const n = serial++;
    const at = new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString().replace('.000Z', 'Z');
    return { type: 'measurement', source: { type: 'withings' }, log_id: `k-${n}`, start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 40 + n / 100, origin: 'device' }] };
  };

  /** How the server runs one query: served by the `_id` index, or not (with its plan). */
  async function served(q: Query): Promise<{ query: Query; byIdIndex: boolean; plan: string }> {
    const explained = await db.command({ explain: { find: q.collection, filter: q.filter }, verbosity: 'queryPlanner' });
    const plan = JSON.stringify(explained.queryPlanner);
    const byIdIndex =
      'filterPushdown' in explained
        ? explained.filterPushdown === true && /USING INDEX \S+__id_ /.test(plan) && !/\bSCAN\b/.test(plan)
        : !plan.includes('COLLSCAN');
    return { query: q, byIdIndex, plan };
  }

  it('a 1-record and a 100-record request, after some history, read only by _id, each read from the index', async () => {
    const u: ProjectedUser = { _id: 'user-keyed', uid: 'keyed', organization_id: 'org-1', customer_id: 'cus-1', status: 'active', timezone: 'Europe/Berlin', timezone_origin: 'profile', mobile_token: 'mt-keyed-0123456789abcdef', updated_at: new Date().toISOString() };
    await (await store.collection<ProjectedUser>(USER_PROJECTION_SPEC)).insertOne(u);
    for (let i = 0; i < 3; i++) await ingestRecords(deps, u, { records: Array.from({ length: 100 }, measurement) });
    await outbox.drain();

    watching = true;
    for (const size of [1, 100]) {
      expect(await ingestRecords(deps, u, { records: Array.from({ length: size }, measurement) })).toHaveLength(size);
      await outbox.drain();
    }
    // Re-sent: the same content under the same ids finds everything it reads.
    serial -= 100;
    await ingestRecords(deps, u, { records: Array.from({ length: 100 }, measurement) });
    await outbox.drain();
    watching = false;

    expect(queries.length).toBeGreaterThan(0);
    const kinds = new Set(queries.map((q) => q.collection.replace(/__p\w+$/, '')));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['record_keys', 'records']));
    const results = await Promise.all(queries.map(served));
    expect(results.filter((r) => !r.byIdIndex)).toEqual([]);
  });
});
