/**
 * Store-then-publish: a record answered with 200 reaches the events topic even when publishing
 * failed (or the process died) after the write — the next start drains the outbox — and no event
 * is ever published for a record that was not stored. The records service runs alone here, over
 * an event log whose publishing to `events` can be made to fail.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EventLog } from '@wellstream/bus';
import { EmbeddedEventLog } from '@wellstream/bus/adapters';
import { ALL_TOPICS, publishEvents, UserEvent, userEventsTopic } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import type { RunningService } from '@wellstream/runtime';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { eventually, gatewayHeaders, TEST_GATEWAY_KEY } from '@wellstream/testing';
import { composeRecords, loadRecordsConfig } from '../src';
import { isoDay, recordTopic, sampleRecord, sleep } from './records-fixtures';

const logger = createLogger('test');

/** The platform's log, except that publishing to `events` fails while `failing` is set. */
function flakyLog(inner: EventLog, state: { failing: boolean }): EventLog {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'publish') {
        return async (topic: string, messages: unknown[]) => {
          if (state.failing && topic === 'events') throw new Error('simulated broker outage');
          return target.publish(topic, messages as never);
        };
      }
      if (prop === 'close') return async () => undefined; // the test closes the real log
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

const user = (now: string): UserEvent => ({
  type: 'user.created',
  occurred_at: now,
  user: {
    id: 'user-outbox-1',
    uid: 'outbox-user',
    organization_id: 'org-1',
    customer_id: 'cust-1',
    status: 'active',
    timezone: 'Europe/Berlin',
    timezone_origin: 'profile',
    country_code: null,
    mobile_token: 'mobile-token-outbox-0123456789',
    sources: [{ type: 'apple_health', connected_at: now }],
    created_at: now,
    updated_at: now,
    deleted_at: null,
  },
});

describe('outbox: store, then publish', () => {
  let dataDir: string;
  let log: EmbeddedEventLog;
  let svc: RunningService | undefined;
  const start = (eventLog: EventLog) =>
    composeRecords(
      loadRecordsConfig({ WELLSTREAM_DATA_DIR: dataDir, WELLSTREAM_GATEWAY_KEYS: TEST_GATEWAY_KEY, WELLSTREAM_OUTBOX_STALE_MS: '0', WELLSTREAM_OUTBOX_DRAIN_MS: '100000', WELLSTREAM_LOG_LEVEL: 'silent' }),
      { eventLog },
    );
  // Straight to the service, signed as the gateway would.
  const target = '/v2/mobile/records?token=mobile-token-outbox-0123456789';
  const post = (s: RunningService, body: unknown) =>
    fetch(`${s.url}${target}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...gatewayHeaders(TEST_GATEWAY_KEY, 'POST', target) },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-outbox-test-'));
    log = new EmbeddedEventLog({ file: path.join(dataDir, 'events.db'), logger });
    for (const t of ALL_TOPICS) await log.ensureTopic(t.spec);
    await publishEvents(log, userEventsTopic, [user(new Date().toISOString())]);
  });

  afterEach(async () => {
    await svc?.stop();
    svc = undefined;
  });

  afterAll(async () => {
    await log.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 200 when publishing fails, and publishes exactly once after a restart', async () => {
    const events = await recordTopic(log, 'events');
    const state = { failing: true };
    svc = await start(flakyLog(log, state));
    const s = svc;
    const res = await eventually(async () => {
      const r = await post(s, { records: [sampleRecord('measurement', isoDay(-1), { log_id: 'outbox-1' })] });
      return r.status === 200 ? r : undefined;
    });
    const stored = ((await res.json()) as any).data[0];
    await sleep(300);
    expect(events.events).toEqual([]);
    await svc.stop();

    // Restart on the same data dir with a working log: the outbox is drained on start-up.
    svc = await start(log);
    await events.waitFor((e) => e.key === stored.id);
    await svc.stop();
    svc = await start(log);
    await sleep(300);
    expect(events.events.filter((e) => e.key === stored.id)).toHaveLength(1);
    expect(events.events[0]).toMatchObject({ event_type: 'data', user_id: 'user-outbox-1', payload: stored });
    await events.stop();
  });

  it('resolves entries a crash left half-written: published if the record was stored, dropped if not', async () => {
    const events = await recordTopic(log, 'events');
    const state = { failing: true };
    svc = await start(flakyLog(log, state));
    const res = await post(svc, { records: [sampleRecord('sleep', isoDay(-1), { log_id: 'outbox-2' })] });
    expect(res.status).toBe(200);
    const stored = ((await res.json()) as any).data[0];
    await svc.stop();
    svc = undefined;

    // Rewind the entry to "prepared" (crash after the record write, before marking it ready), and
    // add one whose record never got written (crash before the record write).
    const store = new SqliteDocumentStore(path.join(dataDir, 'records.db'));
    const outbox = await store.collection<any>({ name: 'outbox' });
    // One entry per write, its messages listed in `messages` (written in the records' transaction),
    // each with its state check as JSON text.
    const entry = (await outbox.find({ state: 'ready' })).find((e) => e.messages.some((m: any) => m.message.key === stored.id));
    expect(entry).toBeDefined();
    await outbox.updateMany({ _id: entry._id }, { $set: { state: 'prepared' } });
    const [first] = entry.messages;
    const check = JSON.parse(first.confirmed_by);
    const ghost = {
      ...first,
      message: { ...first.message, key: 'never-stored', value: JSON.stringify({ ...JSON.parse(first.message.value), key: 'never-stored' }) },
      confirmed_by: JSON.stringify({ ...check, filter: { ...check.filter, _id: 'never-stored' } }),
    };
    await outbox.insertOne({ ...entry, _id: `${entry._id}-ghost`, state: 'prepared', messages: [ghost] });
    await store.close();

    svc = await start(log);
    await events.waitFor((e) => e.key === stored.id);
    await sleep(300);
    expect(events.events.filter((e) => e.key === 'never-stored')).toEqual([]);
    expect(events.events.filter((e) => e.key === stored.id)).toHaveLength(1);
    await events.stop();
  });
});
