/**
 * Adopting, on an upgrade, the demo source and phone apps the users service connected before this
 * service owned them: held ones and other kinds are left alone, deleted users get nothing, an entry
 * this service disconnected since is not brought back, and a second run changes nothing. What is
 * adopted goes to the copies as a `status` event, never `connected` (the customer heard that once).
 * Each start reads only what the users log got since the last completed run; a run cut short is
 * done again whole.
 */
import type { EventLog, OutgoingMessage } from '@wellstream/bus';
import { manualClock } from '@wellstream/clock';
import type { SourceConnectionEvent, UserSnapshot } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import { Outbox } from '@wellstream/outbox';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { ConnectionRepository } from './connection.repository';
import { DisconnectionLog } from './disconnection-log';
import { connectionId } from './connection';
import { adoptUsersSources, AdoptUsersSourcesDeps, adoptSinceLastRun, ADOPTION_OVERLAP_MS } from './adopt-users-sources.usecase';
import { AdoptionMarks } from './adoption-marks';

const CONNECTED_AT = '2025-02-01T08:00:00.000Z';

const snapshot = (over: Partial<UserSnapshot> = {}): UserSnapshot => ({
  id: 'usr-1',
  uid: 'u-1',
  organization_id: 'org-1',
  customer_id: 'cus-1',
  status: 'active',
  timezone: 'UTC',
  timezone_origin: 'profile',
  country_code: null,
  mobile_token: 'mt',
  sources: [
    { type: 'demo', connected_at: CONNECTED_AT },
    { type: 'apple_health', connected_at: CONNECTED_AT },
    { type: 'oura', connected_at: CONNECTED_AT, status: 'active', last_synced_at: null, backfill: null },
  ],
  created_at: CONNECTED_AT,
  updated_at: CONNECTED_AT,
  deleted_at: null,
  ...over,
});

describe('adopting the users service connections on an upgrade', () => {
  let store: SqliteDocumentStore;
  let deps: AdoptUsersSourcesDeps;
  let outbox: Outbox;
  let published: SourceConnectionEvent[];

  beforeEach(async () => {
    store = new SqliteDocumentStore(':memory:');
    published = [];
    const eventLog = {
      publish: async (topic: string, messages: OutgoingMessage[]) => {
        if (topic === 'source-connections') for (const m of messages) published.push(JSON.parse(m.value));
      },
    } as unknown as EventLog;
    outbox = await Outbox.open(store, { eventLog, logger: createLogger('sources-test') });
    await outbox.start();
    deps = { connections: await ConnectionRepository.open(store), disconnections: await DisconnectionLog.open(store), outbox, clock: manualClock('2025-03-01T12:00:00.000Z') };
  });
  afterEach(async () => {
    await outbox.stop();
    await store.close();
  });
  const announced = async () => {
    await outbox.drain();
    return published.map((e) => `${e.source_type}:${e.action}:${e.status}:${e.connected_at}`);
  };

  it('stores the demo source and the phone apps as the users service had them, never a provider, once', async () => {
    expect(await adoptUsersSources(deps, [snapshot()])).toEqual([
      { user_id: 'usr-1', source_type: 'demo' },
      { user_id: 'usr-1', source_type: 'apple_health' },
    ]);
    const demo = await deps.connections.byId(connectionId('usr-1', 'demo'));
    expect(demo).toMatchObject({ user_id: 'usr-1', organization_id: 'org-1', source_type: 'demo', status: 'active', connected_at: CONNECTED_AT, tokens: '' });
    expect(await deps.connections.byId(connectionId('usr-1', 'oura'))).toBeNull();
    expect(await announced()).toEqual([`demo:status:active:${CONNECTED_AT}`, `apple_health:status:active:${CONNECTED_AT}`]);
    expect(await adoptUsersSources(deps, [snapshot()])).toEqual([]);
    expect(await announced()).toHaveLength(2);
  });

  it('leaves a connection it holds as it is', async () => {
    await adoptUsersSources(deps, [snapshot({ sources: [{ type: 'demo', connected_at: CONNECTED_AT }] })]);
    const later = '2025-03-01T00:00:00.000Z';
    expect(await adoptUsersSources(deps, [snapshot({ sources: [{ type: 'demo', connected_at: later }] })])).toEqual([]);
    expect((await deps.connections.byId(connectionId('usr-1', 'demo')))?.connected_at).toBe(CONNECTED_AT);
  });

  it('adopts nothing of a deleted user', async () => {
    expect(await adoptUsersSources(deps, [snapshot({ status: 'deleted' })])).toEqual([]);
  });

  it('does not bring back what was disconnected here since (the users service has not applied it yet)', async () => {
    const add = (at: string, type: string) => deps.disconnections.add({ _id: `${type}-${at}`, connection_id: connectionId('usr-1', type), user_id: 'usr-1', source_type: type, reason: 'disconnected by the user', revoked_at_provider: false, at });
    await add('2025-02-02T00:00:00.000Z', 'demo');
    // Disconnected before the entry was made: the user connected it again, in the users service.
    await add('2025-01-01T00:00:00.000Z', 'apple_health');
    expect(await adoptUsersSources(deps, [snapshot()])).toEqual([{ user_id: 'usr-1', source_type: 'apple_health' }]);
    expect(await deps.connections.byId(connectionId('usr-1', 'demo'))).toBeNull();
  });

  describe('each start reads only what came since the last completed run', () => {
    let marks: AdoptionMarks;
    let reads: (number | undefined)[];
    beforeEach(async () => {
      marks = await AdoptionMarks.open(store);
      reads = [];
    });
    const reader = (snapshots: UserSnapshot[]) => async (fromMs?: number) => {
      reads.push(fromMs);
      return snapshots;
    };
    const adoptedNames = (adopted: { user_id: string; source_type: string }[]) => adopted.map((a) => `${a.user_id}:${a.source_type}`);

    it('reads the users log whole the first time, then from a little before the last completed run began', async () => {
      const before = Date.now();
      expect(adoptedNames(await adoptSinceLastRun({ ...deps, marks }, reader([snapshot()])))).toEqual(['usr-1:demo', 'usr-1:apple_health']);
      const after = Date.now();
      expect(await adoptSinceLastRun({ ...deps, marks }, reader([]))).toEqual([]);
      expect(reads[0]).toBeUndefined();
      expect(reads[1]).toBeGreaterThanOrEqual(before - ADOPTION_OVERLAP_MS);
      expect(reads[1]).toBeLessThanOrEqual(after - ADOPTION_OVERLAP_MS);
      expect(await announced()).toHaveLength(2);
    });

    it('does a run cut short again from where the last completed one began: nothing it missed is lost', async () => {
      const second = snapshot({ id: 'usr-2', uid: 'u-2' });
      const insert = deps.connections.insert.bind(deps.connections);
      let inserts = 0;
      deps.connections.insert = async (c) => {
        if (++inserts === 2) throw new Error('store down');
        return insert(c);
      };
      await expect(adoptSinceLastRun({ ...deps, marks }, reader([snapshot(), second]))).rejects.toThrow('store down');
      deps.connections.insert = insert;
      expect(adoptedNames(await adoptSinceLastRun({ ...deps, marks }, reader([snapshot(), second])))).toEqual(['usr-1:apple_health', 'usr-2:demo', 'usr-2:apple_health']);
      expect(reads).toEqual([undefined, undefined]);
    });
  });
});
