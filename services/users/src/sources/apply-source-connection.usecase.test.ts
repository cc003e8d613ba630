/**
 * Provider connection events into users' `sources` entries and the customer's `connection` events:
 * each action's entry and event (or none), duplicates and older redeliveries change nothing, only
 * users holding the entry get updates, deleted and unknown users are ignored.
 */
import type { EventLog, OutgoingMessage } from '@wellstream/bus';
import { manualClock } from '@wellstream/clock';
import type { SourceConnectionEvent, UserEvent } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import { Outbox } from '@wellstream/outbox';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { newUser, User } from '../users/user';
import { UserEvents } from '../users/user-events';
import { UserRepository } from '../users/user.repository';
import { applySourceConnection } from './apply-source-connection.usecase';

const T0 = '2025-03-01T10:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

describe('applySourceConnection', () => {
  let store: SqliteDocumentStore;
  let repo: UserRepository;
  let outbox: Outbox;
  let published: { topic: string; value: any }[];
  let user: User;
  const clock = manualClock('2025-03-01T12:00:00.000Z');
  const deps = () => ({ repo, events: new UserEvents(outbox), clock });

  const event = (over: Partial<SourceConnectionEvent> = {}): SourceConnectionEvent => ({
    type: 'source.connection',
    action: 'connected',
    user_id: user.id,
    organization_id: user.organization_id,
    source_type: 'oura',
    status: 'active',
    connected_at: T0,
    last_synced_at: null,
    backfill: { state: 'running', progress: 0, start: '2025-01-30T00:00:00.000Z', end: T0 },
    occurred_at: T0,
    ...over,
  });

  /** What the change published: the users snapshot types and the customer events' payloads. */
  async function take() {
    await outbox.drain();
    const out = published;
    published = [];
    return {
      snapshots: out.filter((m) => m.topic === 'users').map((m) => m.value as UserEvent),
      connections: out.filter((m) => m.topic === 'events').map((m) => m.value.payload),
    };
  }
  const stored = async () => (await repo.findById(user.id))!;

  beforeEach(async () => {
    store = new SqliteDocumentStore(':memory:');
    repo = await UserRepository.open(store);
    published = [];
    const eventLog = {
      publish: async (topic: string, messages: OutgoingMessage[]) => {
        for (const m of messages) published.push({ topic, value: JSON.parse(m.value) });
      },
    } as unknown as EventLog;
    outbox = await Outbox.open(store, { eventLog, logger: createLogger('users-test') });
    user = newUser({ uid: 'u-1', organizationId: 'org-1', customerId: 'cus-1', location: { timezone: 'UTC', country_code: null }, now: T0 });
    await repo.insert(user);
  });
  afterEach(async () => {
    await outbox.stop();
    await store.close();
  });

  it('connected adds the entry, publishes source.connected and a `connected` event', async () => {
    expect(await applySourceConnection(deps(), event())).toBe('notified');
    expect((await stored()).sources).toEqual([{ type: 'oura', connected_at: T0, status: 'active', last_synced_at: null, backfill: { state: 'running', progress: 0, start: '2025-01-30T00:00:00.000Z', end: T0 } }]);
    const { snapshots, connections } = await take();
    expect(snapshots.map((s) => [s.type, s.source_type])).toEqual([['source.connected', 'oura']]);
    expect(snapshots[0].user.sources[0]).toMatchObject({ type: 'oura', status: 'active', last_synced_at: null });
    expect(snapshots[0].user).not.toHaveProperty('source_events_at');
    expect(connections).toEqual([
      { user: { uid: 'u-1', user_id: user.id, organization_id: 'org-1' }, source: { type: 'oura' }, action: 'connected', created_at: '2025-03-01T12:00:00.000Z' },
    ]);
  });

  it('a duplicate or an older redelivery changes nothing and emits nothing', async () => {
    await applySourceConnection(deps(), event());
    await take();
    const before = await stored();
    expect(await applySourceConnection(deps(), event())).toBe('duplicate');
    expect(await applySourceConnection(deps(), event({ action: 'synced', last_synced_at: at(-5), occurred_at: at(-5) }))).toBe('duplicate');
    expect((await stored()).version).toBe(before.version);
    expect(await take()).toEqual({ snapshots: [], connections: [] });
  });

  it('progress, syncs and status updates change the entry only (source.updated, no customer event)', async () => {
    await applySourceConnection(deps(), event());
    await take();
    const backfill = { state: 'running' as const, progress: 0.4, start: '2025-01-30T00:00:00.000Z', end: T0 };
    expect(await applySourceConnection(deps(), event({ action: 'backfill_progress', backfill, occurred_at: at(1) }))).toBe('updated');
    expect(await applySourceConnection(deps(), event({ action: 'synced', backfill, last_synced_at: at(2), occurred_at: at(2) }))).toBe('updated');
    expect(await applySourceConnection(deps(), event({ action: 'status', status: 'error', backfill, last_synced_at: at(2), reason: 'provider answered 500', occurred_at: at(3) }))).toBe('updated');
    expect((await stored()).sources).toEqual([{ type: 'oura', connected_at: T0, status: 'error', last_synced_at: at(2), backfill }]);
    const { snapshots, connections } = await take();
    expect(snapshots.map((s) => s.type)).toEqual(['source.updated', 'source.updated', 'source.updated']);
    expect(snapshots[2].user.sources[0]).toMatchObject({ status: 'error', last_synced_at: at(2) });
    expect(connections).toEqual([]);
    // A newer event stating the same state writes nothing.
    expect(await applySourceConnection(deps(), event({ action: 'status', status: 'error', backfill, last_synced_at: at(2), occurred_at: at(4) }))).toBe('unchanged');
    expect(await take()).toEqual({ snapshots: [], connections: [] });
  });

  it('carries the permissions the user refused into the entry and the snapshot, and drops them once granted', async () => {
    expect(await applySourceConnection(deps(), event({ source_type: 'strava', missing_permissions: ['activity:read_all'] }))).toBe('notified');
    expect((await stored()).sources[0]).toMatchObject({ type: 'strava', status: 'active', missing_permissions: ['activity:read_all'] });
    const { snapshots } = await take();
    expect(snapshots[0].user.sources[0].missing_permissions).toEqual(['activity:read_all']);
    // The same state otherwise, with every permission granted after a reconnect: a change, not "unchanged".
    expect(await applySourceConnection(deps(), event({ source_type: 'strava', action: 'status', occurred_at: at(1) }))).toBe('updated');
    expect((await stored()).sources[0]).not.toHaveProperty('missing_permissions');
  });

  it('auth_expired, reconnected and backfill_completed: entry and customer event with their details', async () => {
    await applySourceConnection(deps(), event());
    expect(await applySourceConnection(deps(), event({ action: 'auth_expired', status: 'auth_expired', reason: 'the refresh token was revoked', occurred_at: at(1) }))).toBe('notified');
    expect((await stored()).sources[0].status).toBe('auth_expired');
    expect(await applySourceConnection(deps(), event({ action: 'reconnected', occurred_at: at(2) }))).toBe('notified');
    expect((await stored()).sources[0].status).toBe('active');
    const done = { state: 'done' as const, progress: 1, start: '2025-01-30T00:00:00.000Z', end: T0 };
    const range = { start: '2025-01-30T00:00:00.000Z', end: T0 };
    expect(await applySourceConnection(deps(), event({ action: 'backfill_completed', backfill: done, resource: 'sleep', range, occurred_at: at(3) }))).toBe('notified');
    expect((await stored()).sources).toEqual([{ type: 'oura', connected_at: T0, status: 'active', last_synced_at: null, backfill: done }]);
    const { snapshots, connections } = await take();
    expect(snapshots.map((s) => s.type)).toEqual(['source.connected', 'source.updated', 'source.connected', 'source.updated']);
    expect(connections.map((c) => c.action)).toEqual(['connected', 'auth_expired', 'reconnected', 'backfill_completed']);
    expect(connections[1].reason).toBe('the refresh token was revoked');
    expect(connections[2]).not.toHaveProperty('reason');
    expect(connections[3]).toMatchObject({ resource: 'sleep', range });
  });

  it('disconnected removes the entry with a `disconnected` event; older events stay ignored afterwards', async () => {
    await applySourceConnection(deps(), event());
    await take();
    expect(await applySourceConnection(deps(), event({ action: 'disconnected', reason: 'disconnected by the user', occurred_at: at(5) }))).toBe('notified');
    expect((await stored()).sources).toEqual([]);
    const { snapshots, connections } = await take();
    expect(snapshots.map((s) => s.type)).toEqual(['source.disconnected']);
    expect(connections).toEqual([expect.objectContaining({ action: 'disconnected', reason: 'disconnected by the user', source: { type: 'oura' } })]);
    // A redelivered earlier connect must not bring the entry back.
    expect(await applySourceConnection(deps(), event({ occurred_at: at(1) }))).toBe('duplicate');
    expect(await applySourceConnection(deps(), event({ action: 'disconnected', occurred_at: at(5) }))).toBe('duplicate');
    expect((await stored()).sources).toEqual([]);
    // A later connect does.
    expect(await applySourceConnection(deps(), event({ occurred_at: at(10), connected_at: at(10) }))).toBe('notified');
    expect((await stored()).sources.map((s) => s.connected_at)).toEqual([at(10)]);
  });

  it('disconnected removes the connection it names even after an update stamped a moment later (two jobs of one connection)', async () => {
    await applySourceConnection(deps(), event());
    // A sync step stamped its announcement after the disconnect was stamped, and wrote it first.
    expect(await applySourceConnection(deps(), event({ action: 'synced', last_synced_at: at(6), occurred_at: at(6) }))).toBe('updated');
    await take();
    expect(await applySourceConnection(deps(), event({ action: 'disconnected', reason: 'the user withdrew access', occurred_at: at(5) }))).toBe('notified');
    expect((await stored()).sources).toEqual([]);
    expect((await take()).connections).toEqual([expect.objectContaining({ action: 'disconnected' })]);
    // Redelivered, or naming an earlier connection of the source, it changes nothing.
    expect(await applySourceConnection(deps(), event({ action: 'disconnected', occurred_at: at(5) }))).toBe('duplicate');
    await applySourceConnection(deps(), event({ occurred_at: at(10), connected_at: at(10) }));
    expect(await applySourceConnection(deps(), event({ action: 'disconnected', occurred_at: at(5) }))).toBe('duplicate');
    expect((await stored()).sources.map((s) => s.connected_at)).toEqual([at(10)]);
  });

  it('updates for a source the user does not have change nothing', async () => {
    for (const action of ['backfill_progress', 'synced', 'status', 'auth_expired', 'backfill_completed', 'disconnected'] as const) {
      expect(await applySourceConnection(deps(), event({ action, occurred_at: at(1) }))).toBe('no_entry');
    }
    expect((await stored()).sources).toEqual([]);
    expect(await take()).toEqual({ snapshots: [], connections: [] });
  });

  it('keeps other entries, follows the demo source and phone apps as it follows providers, and ignores deleted, unknown and other organizations\' users', async () => {
    await repo.replace(user, { sources: [{ type: 'demo', connected_at: T0 }] });
    user = (await stored())!;
    await applySourceConnection(deps(), event({ source_type: 'dexcom' }));
    expect((await stored()).sources.map((s) => s.type)).toEqual(['demo', 'dexcom']);
    expect(await applySourceConnection(deps(), event({ source_type: 'demo', action: 'disconnected', occurred_at: at(1) }))).toBe('notified');
    expect(await applySourceConnection(deps(), event({ source_type: 'apple_health', occurred_at: at(1) }))).toBe('notified');
    expect((await stored()).sources.map((s) => s.type)).toEqual(['dexcom', 'apple_health']);
    expect(await applySourceConnection(deps(), event({ user_id: 'nobody' }))).toBe('no_user');
    expect(await applySourceConnection(deps(), event({ organization_id: 'org-2' }))).toBe('no_user');
    await repo.replace(await stored(), { status: 'deleted', deleted_at: at(2) });
    expect(await applySourceConnection(deps(), event({ source_type: 'withings', occurred_at: at(3) }))).toBe('no_user');
    expect((await stored()).sources.map((s) => s.type)).toEqual(['dexcom', 'apple_health']);
  });
});
