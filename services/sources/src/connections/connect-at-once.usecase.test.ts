/**
 * The demo source and the phone apps, connected and disconnected here: one `connected` per
 * connection however often it is asked (double clicks, concurrent detections), `disconnected`
 * without a reason, only active users, only sources that connect at once; records' detections
 * connect phone apps and the demo source, never a provider, and only the organization's user.
 */
import type { EventLog, OutgoingMessage } from '@wellstream/bus';
import { manualClock } from '@wellstream/clock';
import type { SourceConnectionEvent, SourceDetection } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import { Outbox } from '@wellstream/outbox';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import type { ProjectedUser } from '../users/user-projection';
import { ConnectionRepository } from './connection.repository';
import { DisconnectionLog } from './disconnection-log';
import { connectAtOnce, ConnectAtOnceDeps, disconnectAtOnce } from './connect-at-once.usecase';
import { applySourceDetection } from './apply-source-detection.usecase';

const user = (over: Partial<ProjectedUser> = {}): ProjectedUser => ({
  _id: 'usr-1',
  uid: 'u-1',
  organization_id: 'org-1',
  customer_id: 'cus-1',
  status: 'active',
  timezone: 'UTC',
  marketplace_token_sha256: null,
  updated_at: '2025-03-01T00:00:00.000Z',
  ...over,
});

describe('connecting the demo source and the phone apps', () => {
  let store: SqliteDocumentStore;
  let outbox: Outbox;
  let deps: ConnectAtOnceDeps;
  let published: SourceConnectionEvent[];
  let copies: number;
  const changed: string[] = [];

  beforeEach(async () => {
    store = new SqliteDocumentStore(':memory:');
    published = [];
    copies = 0;
    changed.length = 0;
    const eventLog = {
      publish: async (topic: string, messages: OutgoingMessage[]) => {
        if (topic === 'source-connections') for (const m of messages) published.push(JSON.parse(m.value));
      },
    } as unknown as EventLog;
    outbox = await Outbox.open(store, { eventLog, logger: createLogger('sources-test') });
    await outbox.start();
    deps = {
      connections: await ConnectionRepository.open(store),
      disconnections: await DisconnectionLog.open(store),
      outbox,
      clock: manualClock('2025-03-01T12:00:00.000Z'),
      copiesApplied: async () => void copies++,
      changed: (userId, type) => void changed.push(`${userId}:${type}`),
    };
  });
  afterEach(async () => {
    await outbox.stop();
    await store.close();
  });

  it('connects once, announced as a provider connection is, and answers after the copies have it', async () => {
    expect(await connectAtOnce(deps, user(), 'apple_health')).toBe(true);
    expect(await connectAtOnce(deps, user(), 'apple_health')).toBe(false);
    await outbox.drain();
    expect(published).toEqual([
      expect.objectContaining({ action: 'connected', user_id: 'usr-1', organization_id: 'org-1', source_type: 'apple_health', status: 'active', last_synced_at: null, backfill: null }),
    ]);
    expect(copies).toBe(1);
    expect(changed).toEqual(['usr-1:apple_health']);
  });

  it('connects once when asked twice at the same moment', async () => {
    const both = await Promise.all([connectAtOnce(deps, user(), 'demo'), connectAtOnce(deps, user(), 'demo')]);
    expect(both.filter(Boolean)).toHaveLength(1);
    await outbox.drain();
    expect(published.filter((e) => e.action === 'connected')).toHaveLength(1);
  });

  it('disconnects without a reason, and announces it even when it held no connection (an entry of an earlier release)', async () => {
    await connectAtOnce(deps, user(), 'demo');
    await disconnectAtOnce(deps, user(), 'demo');
    await disconnectAtOnce(deps, user(), 'samsung_health');
    await outbox.drain();
    expect(published.map((e) => [e.action, e.source_type, e.reason])).toEqual([
      ['connected', 'demo', undefined],
      ['disconnected', 'demo', undefined],
      ['disconnected', 'samsung_health', undefined],
    ]);
    expect(await deps.connections.byId('usr-1:demo')).toBeNull();
  });

  it('refuses providers, unknown sources and users who are not active', async () => {
    await expect(connectAtOnce(deps, user(), 'oura')).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    await expect(connectAtOnce(deps, user(), 'fitbit')).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    await expect(connectAtOnce(deps, user({ status: 'suspended' }), 'demo')).rejects.toMatchObject({ code: 'MARKETPLACE_NOT_FOUND' });
    await expect(disconnectAtOnce(deps, user(), 'fitbit')).rejects.toMatchObject({ code: 'SOURCE_NOT_FOUND' });
    await outbox.drain();
    expect(published).toEqual([]);
  });

  it("connects what records detects: a phone app or the demo source of the organization's active user, once; never a provider", async () => {
    const detection = (over: Partial<SourceDetection> = {}): SourceDetection => ({ type: 'source.detected', user_id: 'usr-1', organization_id: 'org-1', source_type: 'health_connect', detected_at: '2025-03-01T12:00:00.000Z', ...over });
    const users: Record<string, ProjectedUser> = { 'usr-1': user(), 'usr-2': user({ _id: 'usr-2', status: 'suspended' }) };
    const d = { ...deps, copiesApplied: undefined, logger: createLogger('sources-test'), userById: async (id: string) => users[id] ?? null };
    expect(await applySourceDetection(d, detection())).toBe('connected');
    expect(await applySourceDetection(d, detection())).toBe('already');
    expect(await applySourceDetection(d, detection({ source_type: 'oura' }))).toBe('cloud');
    expect(await applySourceDetection(d, detection({ source_type: 'fitbit' }))).toBe('unknown_source');
    expect(await applySourceDetection(d, detection({ organization_id: 'org-2', source_type: 'demo' }))).toBe('no_user');
    expect(await applySourceDetection(d, detection({ user_id: 'usr-2' }))).toBe('no_user');
    expect(await applySourceDetection(d, detection({ user_id: 'nobody' }))).toBe('no_user');
    await outbox.drain();
    expect(published.map((e) => [e.action, e.user_id, e.source_type])).toEqual([['connected', 'usr-1', 'health_connect']]);
  });
});
