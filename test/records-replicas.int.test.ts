/**
 * Two records processes sharing one customer's load, on the real servers, every deployable its own
 * process: the mobile uploads reach them through the gateway and a round-robin proxy (what a
 * Kubernetes Service is between the gateway and a service's replicas), the fetched records
 * (`source-records`) through their one consumer group, which splits the topic's partitions between
 * them. Each user posts one upload after another while the users go in parallel, so consecutive
 * uploads of a user land on different replicas. Every record must be stored once, published once
 * on the event log and delivered once to a stream client, in the order it was sent per user and
 * flow.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventLog } from '@wellstream/bus';
import { customerEventsTopic, publishEvents, sourceRecordsTopic } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import { createEventLog } from '@wellstream/runtime';
import type { InfraSettings } from '@wellstream/config';
import { ApiClient, connectSse, distributedEnv, eventually, ProcessPlatform, SseConnection, startProcessPlatform, TEST_ADMIN_TOKEN } from '@wellstream/testing';

jest.setTimeout(300_000);

const USERS = 6;
const UPLOADS = 10; // per user, one after another
const MESSAGES = 5; // source-records messages per user
const PER = 20; // records per upload or message
const DAY = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);

/** Record `n` of a flow: its own minute of DAY, value and log id (distinct content). */
const record = (uid: string, flow: 'm' | 's', n: number) => {
  const at = new Date(Date.parse(`${DAY}T${flow === 'm' ? '05' : '13'}:00:00Z`) + n * 60_000).toISOString().replace('.000Z', 'Z');
  return { type: 'measurement' as const, source: { type: flow === 'm' ? 'withings' : 'oura' }, log_id: `${uid}-${flow}-${n}`, start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 60 + n / 100, origin: 'device' as const }] };
};

interface Seen {
  user: string;
  logId: string;
}

/** Every record once, and each user's records of each flow in the order they were sent. */
function problems(seen: Seen[], expected: Map<string, string[]>): string[] {
  const out: string[] = [];
  const count = new Map<string, number>();
  for (const s of seen) count.set(s.logId, (count.get(s.logId) ?? 0) + 1);
  for (const [user, ids] of expected) {
    for (const id of ids) if ((count.get(id) ?? 0) !== 1) out.push(`${id}: ${count.get(id) ?? 0} times`);
    for (const flow of ['m', 's']) {
      const order = seen.filter((s) => s.user === user && s.logId.includes(`-${flow}-`)).map((s) => Number(s.logId.split('-').pop()));
      const back = order.findIndex((n, i) => i > 0 && n < order[i - 1]);
      if (back > 0) out.push(`${user} flow ${flow}: ${order[back]} after ${order[back - 1]}`);
    }
  }
  return out;
}

describe('two records replicas share one customer', () => {
  let platform: ProcessPlatform;
  let log: EventLog;
  const settings = distributedEnv('replicas');

  beforeAll(async () => {
    platform = await startProcessPlatform(
      { ...settings, WELLSTREAM_LOG_LEVEL: 'warn', WELLSTREAM_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-replicas-')) },
      { recordsReplicas: 2 },
    );
    log = createEventLog(settings as unknown as InfraSettings, createLogger('replicas-test'));
  }, 180_000);

  afterAll(async () => {
    await log?.close();
    await platform?.stop();
  }, 60_000);

  it('stores, publishes and delivers every record once, in order per user', async () => {
    const admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
    const customer = (await admin.post('/admin/customers', { name: 'Replicas Co' })).body;
    const org = (await admin.post(`/admin/customers/${customer.id}/organizations`, { name: 'Clinic' })).body;
    const token = (await admin.post(`/admin/customers/${customer.id}/tokens`, { rate_limit_per_hour: 100_000 })).body.token;
    const api = new ApiClient(platform.baseUrl, token);
    const stream = (await api.post('/streams', { name: 'all' })).body;
    const client: SseConnection = await connectSse(`${platform.baseUrl}/streams/${stream.id}/connect?token=${token}`);
    expect(client.status).toBe(200);

    const users: { uid: string; id: string; mobile: string }[] = [];
    for (let u = 0; u < USERS; u++) {
      const uid = `replica-user-${u}`;
      expect((await api.post(`/organizations/${org.id}/users`, { uid, location: { timezone: 'Europe/Berlin' } })).status).toBe(201);
      const got = (await api.get(`/organizations/${org.id}/users/${uid}`)).body;
      users.push({ uid, id: got.id, mobile: got.mobile.token });
    }
    const expected = new Map(users.map((u) => [u.id, [...Array.from({ length: UPLOADS * PER }, (_, n) => `${u.uid}-m-${n}`), ...Array.from({ length: MESSAGES * PER }, (_, n) => `${u.uid}-s-${n}`)]]));

    const uploads = users.map(async (u) => {
      for (let i = 0; i < UPLOADS; i++) {
        const res = await fetch(`${platform.baseUrl}/mobile/records?token=${u.mobile}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ records: Array.from({ length: PER }, (_, k) => record(u.uid, 'm', i * PER + k)) }),
        });
        const text = await res.text();
        expect([u.uid, i, res.status, res.status === 200 ? '' : text]).toEqual([u.uid, i, 200, '']);
      }
    });
    const fetched = (async () => {
      for (let i = 0; i < MESSAGES; i++) {
        await publishEvents(
          log,
          sourceRecordsTopic,
          users.map((u) => ({
            type: 'source.records' as const,
            id: `${u.uid}-s-${i}`,
            user_id: u.id,
            organization_id: org.id,
            source_type: 'oura',
            records: Array.from({ length: PER }, (_, k) => record(u.uid, 's', i * PER + k)),
            fetched_at: new Date().toISOString(),
          })),
        );
      }
    })();
    await Promise.all([...uploads, fetched]);
    // Both replicas answered uploads (the proxy alternates).
    expect(platform.recordsProxy!.counts.every((c) => c >= USERS)).toBe(true);

    const total = USERS * (UPLOADS + MESSAGES) * PER;
    // Stored: each user's records read back through the REST API.
    const stored = await eventually(async () => {
      const all: Seen[] = [];
      for (const u of users) {
        const res = await api.get(`/organizations/${org.id}/users/${u.uid}/measurements?start_date=${DAY}&end_date=${DAY}`);
        all.push(...(res.body.data as { log_id: string }[]).map((r) => ({ user: u.id, logId: r.log_id })));
      }
      return all.length >= total ? all : undefined;
    }, 120_000, 1_000);

    // Published: the event log's data events of this customer, from the beginning.
    const published: Seen[] = [];
    const sub = await log.tail({
      topic: customerEventsTopic.spec.name,
      handle: async (m) => {
        const e = JSON.parse(m.value);
        if (e.event_type === 'data' && e.customer_id === customer.id) published.push({ user: e.user_id, logId: e.payload.log_id });
      },
    });
    const delivered = () => client.events.filter((e) => e.event === 'data').map((e) => e.json()).map((r) => ({ user: r.user.user_id, logId: r.log_id }) as Seen);
    try {
      await eventually(async () => published.length >= total && delivered().length >= total, 120_000, 200);
      // Late duplicates (a second relay publishing the same entries) would come within a drain or two.
      await new Promise((r) => setTimeout(r, 5_000));
    } finally {
      await sub.stop();
      client.close();
    }
    // Stored order is the REST answer's (by start_time): only the counts say something there.
    const found = {
      stored: problems(stored, expected).filter((p) => !p.includes('after')).slice(0, 10),
      published: problems(published, expected).slice(0, 10),
      delivered: problems(delivered(), expected).slice(0, 10),
    };
    expect(found).toEqual({ stored: [], published: [], delivered: [] });
    expect({ stored: stored.length, published: published.length, delivered: delivered().length }).toEqual({ stored: total, published: total, delivered: total });
  });
});
