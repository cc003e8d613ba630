/**
 * The steady load of the fault and container tests, and its end-of-run check: a customer with a
 * push target, a user whose phone posts records, and a stream client; at the end, every record the
 * writer saw acknowledged reached REST, replay, the stream client and the push target. Each place
 * gets its own bounded wait (the push target may be retrying a batch; the stream client may be
 * reconnecting).
 */
import { connectSse, createTenant, eventually, Tenant } from '@wellstream/testing';
import { startPushReceiver, PushReceiver } from '../services/notifications/test/push-receiver';
import { DAY, Ingestion, ReconnectingStream } from './steady-load';

export interface DeliveryCheck {
  baseUrl: string;
  tenant: Tenant;
  uid: string;
  ingestion: Ingestion;
  stream: ReconnectingStream;
  receiver: PushReceiver;
  /** How long the push target and the stream client may take to catch up. */
  catchUpMs: number;
  /** Prefix of the summary line (`[faults]`, `[containers]`). */
  label: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type SteadyLoad = Omit<DeliveryCheck, 'catchUpMs' | 'label'>;

/** Sets the load up on a running platform (`name` tells its user, stream and secret apart) and starts it. */
export async function startSteadyLoad(baseUrl: string, name: string): Promise<SteadyLoad> {
  const tenant = await createTenant(baseUrl, { rateLimitPerHour: 100_000 });
  const receiver = await startPushReceiver();
  expect((await tenant.api.put(`/organizations/${tenant.organizationId}/notification_target`, { url: receiver.url, secret: `${name}-test-secret-0123456789` })).status).toBe(200);
  const uid = `${name}-${Date.now().toString(36)}`;
  expect((await tenant.api.post(`/organizations/${tenant.organizationId}/users`, { uid })).status).toBe(201);
  const user = await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}`);
  const created = await tenant.api.post('/streams', { name });
  expect(created.status).toBe(201);
  const stream = new ReconnectingStream(`${baseUrl}/streams/${created.body.id}/connect?token=${tenant.token}`);
  stream.start();
  const ingestion = new Ingestion(baseUrl, user.body.mobile.token);
  // The new user's token works at once (read-your-writes), also on a freshly started platform.
  const first = await ingestion.post(1);
  expect([first.status, first.error]).toEqual([200, undefined]);
  ingestion.start();
  await sleep(2_000);
  return { baseUrl, tenant, uid, ingestion, stream, receiver };
}

/** Stops the writer, then expects every acknowledged record everywhere. */
export async function expectEveryAcknowledgedRecordDelivered(c: DeliveryCheck): Promise<void> {
  await sleep(2_000);
  await c.ingestion.stop();
  const acked = [...c.ingestion.acked];
  expect(acked.length).toBeGreaterThan(50);
  const missing = (have: Set<string>) => acked.filter((id) => !have.has(id));

  const rest = await eventually(async () => {
    const res = await c.tenant.api.get(`/organizations/${c.tenant.organizationId}/users/${c.uid}/measurements?start_date=${DAY}&end_date=${DAY}`);
    const have = new Set<string>((res.body.data ?? []).map((r: { id: string }) => r.id));
    return missing(have).length === 0 ? have : undefined;
  }, 60_000, 1_000).catch(() => new Set<string>());
  expect(missing(rest)).toEqual([]);

  const pushed = () => new Set(c.receiver.received.flatMap((r) => r.body.items.map((i) => String(i.id))));
  await eventually(async () => missing(pushed()).length === 0 && missing(c.stream.ids).length === 0, c.catchUpMs, 1_000).catch(() => undefined);
  expect(missing(c.stream.ids)).toEqual([]);
  expect(missing(pushed())).toEqual([]);

  const replay = await connectSse(`${c.baseUrl}/replay?token=${c.tenant.token}&event_types=data`);
  try {
    expect(replay.status).toBe(200);
    const replayed = () => new Set(replay.events.filter((e) => e.event === 'data').map((e) => String(e.json().id)));
    await eventually(async () => missing(replayed()).length === 0, 60_000, 500).catch(() => undefined);
    expect(missing(replayed())).toEqual([]);
  } finally {
    replay.close();
  }
  process.stdout.write(
    `${c.label} ${acked.length} acknowledged records delivered everywhere; stream reconnects the platform caused: ${c.stream.reconnects}${c.stream.reconnectReasons.length ? ` (${c.stream.reconnectReasons.join('; ')})` : ''}; dropped by the test: ${c.stream.drops}\n`,
  );
}
