/**
 * Reads by `_id` on the test server use its `_id` index. FerretDB v1.24.2 on SQLite, as upstream
 * builds it, never does (its queries spell the `_id` path unlike the index's expression, and only a
 * filter that is exactly `{_id: <string>}` is pushed down), so ingestion's keyed reads scanned a
 * user's whole history; deploy/servers builds it with ferretdb/sqlite-id-index.patch. The evidence
 * is the server's own plan, not timing. On MongoDB (no FerretDB in buildInfo) the winning plan
 * must not be a collection scan.
 */
import mongoose from 'mongoose';
import { realServers, uniqueTestName } from '@wellstream/testing';

jest.setTimeout(60_000);

type Filter = Record<string, unknown>;

describe('queries by _id on the MongoDB-API server', () => {
  let client: mongoose.mongo.MongoClient;
  let db: mongoose.mongo.Db;
  let ferretdb = false;
  const ids = Array.from({ length: 300 }, (_, i) => `k${String(i).padStart(4, '0')}`);

  beforeAll(async () => {
    client = await mongoose.mongo.MongoClient.connect(realServers().mongoUrl);
    db = client.db(uniqueTestName('id_index'));
    ferretdb = 'ferretdbVersion' in (await db.admin().command({ buildInfo: 1 }));
    const docs = ids.map((_id, i) => ({ _id, user_id: `u${i % 3}`, n: i }));
    await db.collection<{ _id: string }>('keys').insertMany(docs);
  });

  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  /** What the server's plan says about the query: pushed down to an index search, or a scan. */
  async function plan(filter: Filter): Promise<{ indexed: boolean; detail: string }> {
    const explained = await db.command({ explain: { find: 'keys', filter }, verbosity: 'queryPlanner' });
    const detail = JSON.stringify(explained.queryPlanner);
    if (ferretdb) {
      // SQLite's EXPLAIN QUERY PLAN rows, e.g. "SEARCH keys_… USING INDEX keys_…__id_ (<expr>=?)".
      return { indexed: explained.filterPushdown === true && /USING INDEX \S+__id_ /.test(detail) && !/\bSCAN\b/.test(detail), detail };
    }
    return { indexed: !detail.includes('COLLSCAN'), detail };
  }

  const shapes: [string, () => Filter][] = [
    ['_id equality', () => ({ _id: ids[7] })],
    ['_id $eq', () => ({ _id: { $eq: ids[7] } })],
    ['_id $in of 100', () => ({ _id: { $in: ids.slice(100, 200) } })],
    ['user_id and _id $in', () => ({ user_id: 'u1', _id: { $in: ids.slice(100, 200) } })],
  ];

  it.each(shapes)('%s is served by the _id index', async (_name, filter) => {
    const { indexed, detail } = await plan(filter());
    expect({ indexed, detail }).toEqual({ indexed: true, detail });
  });

  it('answers exactly what the filter matches: the other fields and non-string members still count', async () => {
    const keys = db.collection<{ _id: string; user_id: string }>('keys');
    const found = async (filter: Filter) => (await keys.find(filter).toArray()).map((d) => d._id).sort();
    expect(await found({ _id: ids[7] })).toEqual([ids[7]]);
    expect(await found({ _id: { $in: [ids[3], ids[4], 'missing'] } })).toEqual([ids[3], ids[4]]);
    // ids[4] is u1's, ids[3] is u0's: the pushed-down $in selects both, the filter keeps one.
    expect(await found({ user_id: 'u1', _id: { $in: [ids[3], ids[4]] } })).toEqual([ids[4]]);
    expect(await found({ _id: { $in: [ids[5], 42] } })).toEqual([ids[5]]);
    expect(await found({ _id: { $in: [ids[5]], $nin: [ids[5]] } })).toEqual([]);
    await keys.updateOne({ _id: ids[9] }, { $set: { user_id: 'moved' } });
    expect(await found({ user_id: 'moved' })).toEqual([ids[9]]);
    await keys.deleteMany({ _id: { $in: [ids[9], ids[10]] } });
    expect(await found({ _id: { $in: [ids[9], ids[10], ids[11]] } })).toEqual([ids[11]]);
  });
});
