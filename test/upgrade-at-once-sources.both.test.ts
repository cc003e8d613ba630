/**
 * Upgrading from the version where the users service held the demo source and the phone apps in its
 * own `user.sources` (and consumed `source-detections` itself): the sources service, which now owns
 * them, adopts on start what it does not hold, without telling the customer anything. The state
 * the older version left is made by hand: the users service's copy (and its `users` snapshot)
 * holds demo and apple_health, the sources service and records' copy of `source-connections` hold nothing, and a detection of apple_health
 * is still on `source-detections`, unread by the sources service's new consumer group.
 */
import { createDocumentStore, createEventLog } from '@wellstream/runtime';
import type { InfraSettings } from '@wellstream/config';
import { createLogger } from '@wellstream/logging';
import { customerEventsTopic, publishEvents, sourceDetectionsTopic, sourceRecordsTopic } from '@wellstream/contracts';
import type { LogMessage, Subscription } from '@wellstream/bus';
import { ApiClient, byRuntime, createTenant, eventually, Tenant, testRuntime } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

/** The settings the platform's stores and log were opened with (the defaults of infraSettingsSchema). */
const infraOf = (env: NodeJS.ProcessEnv): InfraSettings => ({
  WELLSTREAM_MODE: env.WELLSTREAM_MODE === 'distributed' ? 'distributed' : 'embedded',
  WELLSTREAM_DATA_DIR: env.WELLSTREAM_DATA_DIR ?? './data',
  WELLSTREAM_KAFKA_BROKERS: env.WELLSTREAM_KAFKA_BROKERS,
  WELLSTREAM_KAFKA_CLIENT_ID: env.WELLSTREAM_KAFKA_CLIENT_ID ?? 'wellstream',
  WELLSTREAM_TOPIC_PREFIX: env.WELLSTREAM_TOPIC_PREFIX ?? '',
  WELLSTREAM_MONGO_URL: env.WELLSTREAM_MONGO_URL,
  WELLSTREAM_DB_PREFIX: env.WELLSTREAM_DB_PREFIX ?? 'wellstream',
  WELLSTREAM_REDIS_URL: env.WELLSTREAM_REDIS_URL,
  WELLSTREAM_LOG_LEVEL: 'silent',
  WELLSTREAM_OUTBOX_DRAIN_MS: 2_000,
  WELLSTREAM_OUTBOX_STALE_MS: 30_000,
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function upgradeSuite(mode: 'embedded' | 'distributed'): void {
  let platform: TestPlatform;
  let tenant: Tenant;
  const tails: Subscription[] = [];
  const env = { WELLSTREAM_DEMO_TICK_MS: '500', WELLSTREAM_DEMO_BACKFILL_DAYS: '1' };

  afterAll(async () => {
    for (const t of tails) await t.stop();
    await platform?.stop();
  });

  /** Every message of a topic appended since `from` (ms), parsed. */
  async function collect(topic: string, from: number): Promise<Record<string, any>[]> {
    const seen: Record<string, any>[] = [];
    const sub = await platform.eventLog.tail({ topic, fromTimestamp: from, handle: async (m: LogMessage) => void seen.push(JSON.parse(m.value)) });
    tails.push(sub);
    return seen;
  }
  const connectionEvents = (events: Record<string, any>[], userId: string) =>
    events.filter((e) => e.event_type === 'connection' && e.payload?.user?.user_id === userId).map((e) => `${e.payload.source.type}:${e.payload.action}`);

  it('adopts the demo source and a phone app the users service held: demo data resumes, no connected event, a fresh connect still works', async () => {
    platform = await startTestPlatform({ mode, label: 'upgrade-at-once', env });
    tenant = await createTenant(platform.baseUrl);
    const org = tenant.organizationId;
    expect((await tenant.api.post(`/organizations/${org}/users`, { uid: 'upgraded' })).status).toBe(201);
    const user = (await tenant.api.get(`/organizations/${org}/users/upgraded`)).body;
    // The demo source connects on the marketplace; a phone app from the app itself, with the user's mobile token.
    const demo = await fetch(`${user.marketplace.url}/sources/demo/connect`, { method: 'POST', headers: { accept: 'application/json' } });
    expect(demo.status).toBe(200);
    const app = await fetch(`${platform.baseUrl}/mobile/sources/apple_health/connect?token=${user.mobile.token}`, { method: 'POST' });
    expect(app.status).toBe(200);
    expect((await tenant.api.get(`/organizations/${org}/users/upgraded`)).body.sources.map((s: { type: string }) => s.type).sort()).toEqual(['apple_health', 'demo']);
    await platform.stop();

    // The older version's state: the sources service holds none of them; a detection waits.
    const settings = infraOf(platform.env);
    const logger = createLogger('upgrade-test');
    const store = createDocumentStore(settings, 'sources', logger);
    const removed = await (await store.collection<{ _id: string; user_id: string }>({ name: 'connections' })).deleteMany({ user_id: user.id });
    expect(removed).toBe(2);
    await store.close();
    // Nor did records' copy of source-connections (the phone apps and the demo never went there).
    const records = createDocumentStore(settings, 'records', logger);
    await (await records.collection<{ _id: string; user_id: string }>({ name: 'source_connection_projection' })).deleteMany({ user_id: user.id });
    await records.close();
    const log = createEventLog(settings, logger);
    await publishEvents(log, sourceDetectionsTopic, [{ type: 'source.detected', user_id: user.id, organization_id: org, source_type: 'apple_health', detected_at: new Date().toISOString() }]);
    await log.close();

    // What happens while it starts counts too (a replayed detection is read then).
    const restartedAt = Date.now();
    platform = await startTestPlatform({ mode, label: 'upgrade-at-once', env: platform.env, dataDir: platform.dataDir });
    // Another port: the customer's client follows it.
    const api = new ApiClient(platform.baseUrl, tenant.token);
    const customerEvents = await collect(customerEventsTopic.spec.name, restartedAt);
    const published = await collect(sourceRecordsTopic.spec.name, restartedAt);

    // The demo source runs for the user again: its records are published for them.
    await eventually(async () => published.some((e) => e.user_id === user.id), byRuntime({ embedded: 15_000, distributed: 30_000 }));
    const sources = async () => ((await api.get(`/organizations/${org}/users/upgraded`)).body.sources as { type: string }[]).map((s) => s.type).sort();
    expect(await sources()).toEqual(['apple_health', 'demo']);
    // Records' availability hears of them again (which the customer reads), without a connection event.
    const connected = async () =>
      ((await api.get(`/organizations/${org}/users/upgraded/availability`)).body.sources as { type: string; connected: boolean }[]).filter((x) => x.connected).map((x) => x.type).sort();
    await eventually(async () => (await connected()).join() === 'apple_health,demo', 15_000);
    // A fresh connect is announced as before.
    const res = await fetch(`${platform.baseUrl}/mobile/sources/health_connect/connect?token=${user.mobile.token}`, { method: 'POST' });
    expect(res.status).toBe(200);
    await eventually(async () => connectionEvents(customerEvents, user.id).includes('health_connect:connected'), 15_000);
    // Time for a replayed detection to have been announced, had it been.
    await sleep(1_000);
    expect(connectionEvents(customerEvents, user.id)).toEqual(['health_connect:connected']);
    expect(await sources()).toEqual(['apple_health', 'demo', 'health_connect']);
  });
}

jest.setTimeout(byRuntime({ embedded: 120_000, distributed: 240_000 }));

describe(`upgrading: the sources service adopts the users service's at-once sources (${testRuntime()})`, () => upgradeSuite(testRuntime()));
