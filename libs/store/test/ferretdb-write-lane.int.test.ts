/**
 * On FerretDB (SQLite: one writer per database file), one store's writes reach the server one at a
 * time: writers that overlap there wait in SQLite's busy handler, which sleeps up to 100 ms between
 * tries, so concurrent requests and the outbox relay cost more waiting than writing. The evidence
 * is the driver's own command events: no write command starts before the one before it answered.
 * Reads are not queued. On MongoDB (no FerretDB in buildInfo) writes are not queued at all.
 */
import mongoose from 'mongoose';
import { createLogger } from '@wellstream/logging';
import { realServers, uniqueTestName } from '@wellstream/testing';
import { MongoDocumentStore } from '../src/adapters';

jest.setTimeout(60_000);

const WRITES = new Set(['insert', 'update', 'delete', 'findAndModify']);

describe('writes of one store on the MongoDB-API server', () => {
  const dbName = uniqueTestName('write_lane');
  let store: MongoDocumentStore;
  let client: mongoose.mongo.MongoClient;
  const spans: { name: string; start: number; end: number }[] = [];

  beforeAll(async () => {
    // The store opens its own connection: have it report its commands (as bench/ingestion-commands.probe.mjs does).
    const createConnection = mongoose.createConnection.bind(mongoose);
    const spy = jest.spyOn(mongoose, 'createConnection').mockImplementation(((url: string, options?: mongoose.ConnectOptions) =>
      createConnection(url, { ...options, monitorCommands: true })) as typeof mongoose.createConnection);
    store = new MongoDocumentStore({ url: realServers().mongoUrl, dbName, logger: createLogger('store-test') });
    spy.mockRestore();
    await store.collection({ name: 'warm' });
    client = mongoose.connections.find((c) => c.name === dbName)!.getClient();
    const started = new Map<number, { name: string; start: number }>();
    client.on('commandStarted', (e) => started.set(e.requestId, { name: e.commandName, start: performance.now() }));
    client.on('commandSucceeded', (e) => {
      const s = started.get(e.requestId);
      if (s) spans.push({ ...s, end: performance.now() });
    });
  });

  afterAll(async () => {
    await store.dropForTests();
    await store.close();
  });

  it('go one at a time on FerretDB (reads still overlap them), and all land', async () => {
    const ferretdb = 'ferretdbVersion' in (await client.db(dbName).admin().command({ buildInfo: 1 }));
    const parts = await store.collection<{ _id: string; user_id: string; n: number }>({ name: 'parts', partitionKey: 'user_id' });
    const flat = await store.collection<{ _id: string; n: number }>({ name: 'flat' });
    await flat.insertOne({ _id: 'seed', n: 0 });
    spans.length = 0;
    const batch = (user: string) => Array.from({ length: 100 }, (_, n) => ({ _id: `${user}-${n}`, user_id: user, n }));
    await Promise.all([
      parts.bulkUpsert(batch('a')),
      parts.bulkUpsert(batch('b')),
      parts.bulkUpsert(batch('c'), { stored: ['c-1', 'c-2'] }),
      flat.insertOne({ _id: 'one', n: 1 }),
      flat.updateMany({ _id: { $in: ['seed'] } }, { $set: { n: 2 } }),
      flat.deleteMany({ _id: 'nothing' }),
      flat.find({}),
      parts.find({ user_id: 'a' }),
    ]);
    expect(await parts.count({ user_id: 'c' })).toBe(100);
    expect((await flat.findOne({ _id: 'seed' }))?.n).toBe(2);
    const writes = spans.filter((s) => WRITES.has(s.name)).sort((x, y) => x.start - y.start);
    expect(writes.length).toBeGreaterThanOrEqual(6);
    const overlapping = writes.filter((w, i) => i > 0 && w.start < writes[i - 1].end).map((w) => w.name);
    if (ferretdb) expect(overlapping).toEqual([]);
    else expect(writes.length).toBeGreaterThan(0);
  });
});
