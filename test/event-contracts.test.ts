/**
 * Events survive deploying one service at a time. Every message carries a schema version; this
 * release reads the current and the previous one and ignores fields it does not know. The fixtures
 * in libs/contracts/fixtures/v1 are what the previous release wrote: each is decoded by this
 * release's schemas, then published as-is on a running platform and followed into every consumer
 * of its topic (users, records, streams, notifications, rules).
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  ALL_TOPICS,
  CURRENT_SCHEMA_VERSION,
  customerEventsTopic,
  decodeEvent,
  InvalidEventError,
  organizationEventsTopic,
  publishEvents,
  sourceDetectionsTopic,
  TopicDefinition,
  userEventsTopic,
} from '@wellstream/contracts';
import { connectSse, createTenant, eventually, gatewayHeaders, TEST_GATEWAY_KEY } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

jest.setTimeout(60_000);

const FIXTURES = path.resolve(__dirname, '../libs/contracts/fixtures/v1');
const fixtureFiles = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));
const topicOf = (file: string) => ALL_TOPICS.find((t) => t.spec.name === file.split('.')[0]) as TopicDefinition<unknown>;

function fixture(file: string, values: Record<string, string>): string {
  return fs.readFileSync(path.join(FIXTURES, file), 'utf8').replace(/\{\{(\w+)\}\}/g, (_m, name: string) => {
    if (values[name] === undefined) throw new Error(`${file}: no value for {{${name}}}`);
    return values[name];
  });
}

const sample: Record<string, string> = {
  now: '2026-01-02T03:04:05.000Z',
  organization_id: 'org_1',
  customer_id: 'cus_1',
  user_id: 'usr_1',
  uid: 'patient-1',
  mobile_token: 'mob_1',
  detected_user_id: 'usr_1',
  detected_organization_id: 'org_1',
  event_id: 'evt_1',
  record_id: 'rec_1',
};

describe('event schema versions', () => {
  it('has a previous-version fixture for every topic', () => {
    expect(new Set(fixtureFiles.map((f) => f.split('.')[0]))).toEqual(new Set(ALL_TOPICS.map((t) => t.spec.name)));
  });

  it.each(fixtureFiles)('reads the previous version: %s', (file) => {
    const raw = fixture(file, sample);
    expect(JSON.parse(raw)).not.toHaveProperty('schema_version');
    expect(() => decodeEvent(topicOf(file), raw)).not.toThrow();
  });

  it.each(fixtureFiles)('reads the current version with fields it does not know: %s', (file) => {
    const event = JSON.parse(fixture(file, sample)) as Record<string, unknown>;
    const next = JSON.stringify({ ...event, schema_version: CURRENT_SCHEMA_VERSION, added_by_a_newer_release: { x: 1 } });
    expect(decodeEvent(topicOf(file), next)).toMatchObject(event);
  });

  it('refuses a version it cannot read, and writes the current one', async () => {
    const raw = JSON.parse(fixture('organizations.organization-created.json', sample)) as Record<string, unknown>;
    for (const version of [CURRENT_SCHEMA_VERSION + 1, 0, '2']) {
      expect(() => decodeEvent(organizationEventsTopic, JSON.stringify({ ...raw, schema_version: version }))).toThrow(InvalidEventError);
    }
    const written: string[] = [];
    const log = { publish: async (_t: string, ms: { value: string }[]) => void written.push(...ms.map((m) => m.value)) };
    await publishEvents(log as never, organizationEventsTopic, [raw as never]);
    expect(JSON.parse(written[0])).toMatchObject({ schema_version: CURRENT_SCHEMA_VERSION, type: 'organization.created' });
  });
});

describe('every consumer reads what the previous release wrote', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startTestPlatform({ env: { WELLSTREAM_RULES_ENABLED: 'true', WELLSTREAM_GATEWAY_KEYS: TEST_GATEWAY_KEY } });
  });
  afterAll(() => platform?.stop());

  it('organizations, users, source-detections and events fixtures reach users, records, streams, notifications and rules', async () => {
    const tenant = await createTenant(platform.baseUrl);
    const detected = await tenant.api.post(`/organizations/${tenant.organizationId}/users`, { uid: 'detected-user' });
    expect(detected.status).toBe(201);
    const values = {
      ...sample,
      now: new Date().toISOString(),
      customer_id: tenant.customerId,
      // An organization and a user that exist only through previous-version events.
      organization_id: `org_v1_${randomUUID().slice(0, 8)}`,
      user_id: `usr_v1_${randomUUID().slice(0, 8)}`,
      uid: 'previous-release-user',
      mobile_token: `mob_v1_${randomUUID()}`,
      detected_user_id: detected.body.id,
      detected_organization_id: tenant.organizationId,
      event_id: `evt_v1_${randomUUID().slice(0, 8)}`,
      record_id: `rec_v1_${randomUUID().slice(0, 8)}`,
    };
    const publishRaw = async (topic: TopicDefinition<unknown>, file: string) => {
      const value = fixture(file, values);
      const event = decodeEvent(topic, value);
      await platform.eventLog.publish(topic.spec.name, [
        { key: topic.key(event), partitionKey: topic.partitionKey(event), value, ...(topic.tenant ? { tenant: topic.tenant(event) } : {}) },
      ]);
    };
    await publishRaw(organizationEventsTopic as TopicDefinition<unknown>, 'organizations.organization-created.json');
    await publishRaw(userEventsTopic as TopicDefinition<unknown>, 'users.user-created.json');
    await publishRaw(sourceDetectionsTopic as TopicDefinition<unknown>, 'source-detections.source-detected.json');
    await publishRaw(customerEventsTopic as TopicDefinition<unknown>, 'events.data.json');
    await publishRaw(customerEventsTopic as TopicDefinition<unknown>, 'events.connection.json');

    // Straight to each service, signed as the gateway (the gateway's own store never saw this organization).
    const org = values.organization_id;
    const caller = { customerId: tenant.customerId, organizationId: org };
    const direct = async (service: string, target: string) => {
      const url = platform.services.find((s) => s.name === service)!.url;
      const res = await fetch(url + target, { headers: gatewayHeaders(TEST_GATEWAY_KEY, 'GET', target, caller) });
      return { status: res.status, body: (await res.json()) as any };
    };
    // users and notifications: their organization-owner projections read the v1 organization event.
    await eventually(async () => (await direct('users', `/v2/organizations/${org}/users`)).status === 200);
    await eventually(async () => (await direct('notifications', `/v2/organizations/${org}/notification_target`)).status === 404);
    // rules: the v1 organization (rules enabled) and the v1 user.
    await eventually(async () => {
      const r = await direct('rules', `/v2/organizations/${org}/users/${values.uid}/rules`);
      return r.status === 200 && Array.isArray(r.body.data);
    });
    // records: the v1 user and organization: its mobile token ingests, and the list serves the user.
    await eventually(async () => (await direct('records', `/v2/organizations/${org}/users/${values.uid}/measurements`)).status === 200);
    const ingest = await fetch(`${platform.baseUrl}/mobile/records?token=${values.mobile_token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        records: [{ type: 'measurement', source: { type: 'apple_health' }, log_id: 'after-v1', start_time: '2026-01-01T08:00:00Z', end_time: '2026-01-01T08:00:00Z', metrics: [{ type: 'body_weight', unit: 'kg', value: 70 }] }],
      }),
    });
    expect(ingest.status).toBe(200);
    // users: the v1 source detection connected the source.
    await eventually(async () => {
      const u = await tenant.api.get(`/organizations/${tenant.organizationId}/users/detected-user`);
      return u.body.sources?.some((s: { type: string }) => s.type === 'apple_health');
    });
    // streams: replay serves the v1 data and connection events' payloads.
    const replay = await connectSse(`${platform.baseUrl}/replay?token=${tenant.token}`);
    try {
      expect(replay.status).toBe(200);
      const data = await replay.waitFor((e) => e.event === 'data' && e.json().log_id === 'previous-release-1');
      expect(data.json()).toMatchObject({ id: values.record_id, metrics: [{ type: 'body_weight', value: 71.4 }] });
      expect(data.json()).not.toHaveProperty('schema_version');
      await replay.waitFor((e) => e.event === 'connection' && e.json().user?.user_id === values.user_id);
    } finally {
      replay.close();
    }
  });
});
