/**
 * Store, then publish, for users: while the event log refuses every publish, a suspension and a
 * deletion still answer 200 (the change and its event are stored together), and once the log is
 * back the events are published without any retry by the caller; records then refuses the deleted
 * user's mobile token. Before the outbox, the failed publish answered 500 and a retried DELETE
 * answered 404 without ever publishing user.deleted.
 */
import type { EventLog, OutgoingMessage } from '@wellstream/bus';
import { ApiClient, createTenant, eventually, recordTopic, TEST_ADMIN_TOKEN } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

let platform: TestPlatform;
const log = { down: false };

beforeAll(async () => {
  platform = await startTestPlatform();
  // The platform's one event log: every service's relay publishes through this instance.
  const eventLog: EventLog = platform.eventLog;
  const publish = eventLog.publish.bind(eventLog);
  eventLog.publish = async (topic: string, messages: OutgoingMessage[]) => {
    if (log.down) throw new Error('simulated event-log outage');
    return publish(topic, messages);
  };
});
afterAll(() => platform.stop());

it('publishes what was answered during an event-log outage once the log is back', async () => {
  const t = await createTenant(platform.baseUrl);
  const admin = new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN);
  const uid = `outbox-${Date.now().toString(36)}`;
  expect((await t.api.post(`/organizations/${t.organizationId}/users`, { uid })).status).toBe(201);
  const user = (await t.api.get(`/organizations/${t.organizationId}/users/${uid}`)).body;
  const mobile = new ApiClient(platform.baseUrl, user.mobile.token);
  expect((await mobile.post('/mobile/records', { records: [] })).status).not.toBe(401);
  const events = await recordTopic<{ type: string; user: { id: string } }>(platform.eventLog, 'users');
  try {
    log.down = true;
    expect((await admin.post(`/admin/organizations/${t.organizationId}/users/${uid}/suspend`)).status).toBe(200);
    expect((await t.api.delete(`/organizations/${t.organizationId}/users/${uid}`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(events.events.filter((e) => e.user.id === user.id && e.type !== 'user.created')).toEqual([]);
    log.down = false;
    // No request is retried: the outbox relay publishes both, in order.
    await events.waitFor((e) => e.user.id === user.id && e.type === 'user.deleted', 15_000);
    expect(events.events.filter((e) => e.user.id === user.id).map((e) => e.type)).toEqual(['user.created', 'user.suspended', 'user.deleted']);
    await eventually(async () => (await mobile.post('/mobile/records', { records: [] })).status === 401, 10_000);
  } finally {
    log.down = false;
    await events.stop();
  }
});
