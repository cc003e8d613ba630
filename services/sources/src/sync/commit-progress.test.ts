/**
 * A sync step read its connection before its provider calls; other jobs of the connection change
 * it meanwhile. The commit announces the connection as stored then, with the step's changes on
 * top (not the step's first read, which would undo another job's announcement in the user's source
 * entry), and lands nothing on a connection another job expired: it must not make it active again
 * (the marketplace would show it connected, with no job left to notice), nor announce it active;
 * its records are left for the reconnect, whose gap reads them again.
 */
import type { EventLog, OutgoingMessage } from '@wellstream/bus';
import { manualClock } from '@wellstream/clock';
import type { SourceConnectionEvent } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import { Outbox } from '@wellstream/outbox';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import type { Connection } from '../connections/connection';
import { ConnectionRepository } from '../connections/connection.repository';
import type { IngestRecord } from '../providers/provider.port';
import { commit, CommitDeps } from './commit-progress';

const AT = '2025-03-01T12:00:00.000Z';
const connection = (over: Partial<Connection> = {}): Connection => ({
  _id: 'usr-1:oura',
  user_id: 'usr-1',
  organization_id: 'org-1',
  source_type: 'oura',
  status: 'active',
  provider_user_id: 'oura-1',
  tokens: 'sealed',
  token_expires_at: '2025-03-02T00:00:00.000Z',
  token_rev: 1,
  refresh_lock_until: '1970-01-01T00:00:00.000Z',
  connected_at: '2025-02-01T00:00:00.000Z',
  last_synced_at: null,
  last_error: null,
  failures: 0,
  resources: { sleep: { backfill_start: '2025-02-01T00:00:00.000Z', backfill_end: AT, backfill_done_until: AT, backfill_cursor: null, synced_until: null } },
  sync_seq: 4,
  last_announced_at: null,
  updated_at: AT,
  ...over,
});
const record = { type: 'sleep', log_id: 'sleep-1', start: '2025-03-01T00:00:00.000Z', end: '2025-03-01T07:00:00.000Z' } as unknown as IngestRecord;

describe('committing a sync step', () => {
  let store: SqliteDocumentStore;
  let outbox: Outbox;
  let deps: CommitDeps;
  let published: { topic: string; value: any }[];

  beforeEach(async () => {
    store = new SqliteDocumentStore(':memory:');
    published = [];
    const eventLog = {
      publish: async (topic: string, messages: OutgoingMessage[]) => void published.push(...messages.map((m) => ({ topic, value: JSON.parse(m.value) }))),
    } as unknown as EventLog;
    outbox = await Outbox.open(store, { eventLog, logger: createLogger('sources-test') });
    await outbox.start();
    deps = { connections: await ConnectionRepository.open(store), outbox, clock: manualClock(AT) };
  });
  afterEach(async () => {
    await outbox.stop();
    await store.close();
  });

  const connectionEvents = () => published.filter((p) => p.topic === 'source-connections').map((p) => p.value as SourceConnectionEvent);
  const recordBatches = () => published.filter((p) => p.topic === 'source-records');

  it('stores progress and records, and announces the connection healthy again after failures', async () => {
    await deps.connections.save(connection({ failures: 2, last_error: 'Oura answered 503' }));
    await commit(deps, 'usr-1:oura', [record], { 'resources.sleep.synced_until': AT });
    await outbox.drain();
    expect(await deps.connections.byId('usr-1:oura')).toMatchObject({ status: 'active', failures: 0, last_error: null, sync_seq: 5, last_synced_at: AT });
    expect(connectionEvents()).toEqual([expect.objectContaining({ action: 'status', status: 'active' })]);
    expect(recordBatches()).toHaveLength(1);
  });

  it('announces what another job stored while the step ran (a missing permission), with the step\'s progress', async () => {
    await deps.connections.save(connection({ missing_permissions: ['daily'], sync_seq: 5 }));
    await commit(deps, 'usr-1:oura', [record], { 'resources.sleep.backfill_done_until': AT }, [['backfill_progress', {}]]);
    await outbox.drain();
    expect(connectionEvents()).toEqual([expect.objectContaining({ action: 'backfill_progress', status: 'active', missing_permissions: ['daily'] })]);
    expect(await deps.connections.byId('usr-1:oura')).toMatchObject({ missing_permissions: ['daily'], sync_seq: 6 });
  });

  it('leaves a connection that expired meanwhile expired: no progress, no announcement, no records', async () => {
    // Another job stored it expired while this step called the provider.
    await deps.connections.save(connection({ status: 'auth_expired', sync_seq: 5, last_error: 'refused' }));
    await commit(deps, 'usr-1:oura', [record], { 'resources.sleep.synced_until': AT }, [['backfill_completed', { resource: 'sleep' }]]);
    await outbox.drain();
    expect(await deps.connections.byId('usr-1:oura')).toMatchObject({ status: 'auth_expired', sync_seq: 5, last_error: 'refused', resources: { sleep: { synced_until: null } } });
    expect(connectionEvents()).toEqual([]);
    expect(recordBatches()).toEqual([]);
    expect(await outbox.backlog()).toMatchObject({ count: 0 });
  });
});
