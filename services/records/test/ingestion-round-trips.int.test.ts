/**
 * What one ingestion request costs the MongoDB-API store, counted by the driver's command
 * monitoring: a 100-record request sends about as many commands as a 1-record one (its reads are
 * one per collection, its writes one per collection and partition, its outbox entry one document),
 * not a command per record. The records use case, repositories and outbox on the real server.
 */
import { customerEventsTopic } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import { FRESH_USER_MS, ingestRecords, IngestDeps } from '../src/records/ingest-records/ingest-records.usecase';
import type { ProjectedUser } from '../src/users/user-projection';
import { openMongoIngestion, MongoIngestion } from './mongo-ingestion.fixture';
import { USER_PROJECTION_SPEC } from '../src/users/user-projection.repository';

jest.setTimeout(120_000);
const logger = createLogger('round-trips-test');

describe('ingestion on the MongoDB store: round trips per request', () => {
  let fixture: MongoIngestion;
  let store: MongoIngestion['store'];
  let log: MongoIngestion['log'];
  let outbox: MongoIngestion['outbox'];
  let deps: IngestDeps;
  const commands: string[] = [];
  let counting = false;

  beforeAll(async () => {
    fixture = await openMongoIngestion('trips', logger);
    ({ store, log, outbox, deps } = fixture);
    fixture.client.on('commandStarted', (e) => void (counting && commands.push(`${e.commandName} ${String(e.command[e.commandName]).replace(/__p\w+$/, '')}`)));
  });
  afterAll(() => fixture.close());

  let serial = 0;
  const measurement = () => {
    const n = serial++;
    const at = new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString().replace('.000Z', 'Z');
    return { type: 'measurement', source: { type: 'withings' }, log_id: `t-${n}`, start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 40 + n / 100, origin: 'device' }] };
  };
  async function user(uid: string): Promise<ProjectedUser> {
    const u: ProjectedUser = { _id: `user-${uid}`, uid, organization_id: 'org-1', customer_id: 'cus-1', status: 'active', timezone: 'Europe/Berlin', timezone_origin: 'profile', mobile_token: `mt-${uid}-0123456789abcdef`, updated_at: new Date().toISOString() };
    await (await store.collection<ProjectedUser>(USER_PROJECTION_SPEC)).insertOne(u);
    return u;
  }
  /** The commands of one request, its events' publishing included. */
  async function request(u: ProjectedUser, size: number, userReadAt?: number): Promise<string[]> {
    commands.length = 0;
    counting = true;
    const answer = await ingestRecords(deps, u, { records: Array.from({ length: size }, measurement) }, { userReadAt });
    await outbox.drain();
    counting = false;
    expect(answer).toHaveLength(size);
    return [...commands];
  }

  it('a 100-record request sends no more commands than a 1-record request, and writes each collection once', async () => {
    const u = await user('trips');
    await request(u, 1); // the user's first: creates its partitions
    // The relay's lease (one insert and one delete a publishing round, whatever the round holds) is
    // the relay's, not the request's: counted apart, and no more for 100 records than for 1.
    const lease = (cs: string[]) => cs.filter((c) => c.endsWith(' outbox_relay'));
    const own = (cs: string[]) => cs.filter((c) => !c.endsWith(' outbox_relay'));
    const oneAll = await request(u, 1);
    const hundredAll = await request(u, 100);
    expect(lease(hundredAll).length).toBeLessThanOrEqual(lease(oneAll).length);
    const one = own(oneAll);
    const hundred = own(hundredAll);
    expect(hundred.length).toBeLessThanOrEqual(one.length);
    // One insert each: the outbox entry, the records, the keys (the stats that exist are replaced in one update).
    expect(hundred.filter((c) => c.startsWith('insert')).sort()).toEqual(['insert outbox', 'insert record_keys', 'insert records']);
    // Every record stored, and one event each on the log.
    const end = async () => (await log.groupPositions('nobody', customerEventsTopic.spec.name)).reduce((n, p) => n + p.end, 0);
    expect(await end()).toBe(102);
  });

  it("a single-record request reads its key documents once: the content key and its own resource's stats, not every resource's of its source", async () => {
    const u = await user('single');
    await request(u, 1); // the user's first: creates its partitions, and is the source's first record
    const one = await request(u, 1);
    // A lookup per id is the adapter's way with a few ids (one $in is another): either way at most
    // the record's content key and the stats of its (source, resource).
    expect(one.filter((c) => c === 'find record_keys').length).toBeLessThanOrEqual(2);
  });

  it('reads the user again only when the request read it more than FRESH_USER_MS before its batch, and then heeds what it finds', async () => {
    const u = await user('fresh');
    await request(u, 1);
    const reads = (cs: string[]) => cs.filter((c) => c === 'find user_projection').length;
    expect(reads(await request(u, 1, Date.now()))).toBe(0);
    expect(reads(await request(u, 1, Date.now() - FRESH_USER_MS - 1000))).toBe(1);
    expect(reads(await request(u, 1))).toBe(1);
    // Suspended since an old read: the batch finds out and stores nothing.
    await (await store.collection<ProjectedUser>(USER_PROJECTION_SPEC)).updateMany({ _id: u._id }, { $set: { status: 'suspended' } });
    await expect(ingestRecords(deps, u, { records: [measurement()] }, { userReadAt: Date.now() - FRESH_USER_MS - 1000 })).rejects.toMatchObject({ code: 'USER_SUSPENDED' });
  });
});
