/**
 * The read-only tail of a stream, through the gateway: it sees the stream's events (its filters
 * applied) while the stream's own client still receives every one of them, it is no member, it
 * resumes after a list of positions, and it answers 404, 400 and 429 before the event stream opens.
 */
import { randomUUID } from 'node:crypto';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { connectSse, createTenant, eventually, SseConnection, Tenant, testRuntime } from '@wellstream/testing';
import { connectStream, marksOf, publish } from './stream-fixtures';

const mode = testRuntime();
jest.setTimeout(120_000);
let platform: TestPlatform;
let tenant: Tenant;
const open: SseConnection[] = [];

const track = (c: SseConnection) => (open.push(c), c);
const tail = async (streamId: string, headers?: Record<string, string>) => track(await connectSse(`${platform.baseUrl}/streams/${streamId}/tail?token=${tenant.token}`, { headers }));
const members = async (id: string) => (await tenant.api.get(`/streams/${id}`)).body.members as number;
const createStream = async (body: Record<string, unknown> = {}) => {
  const res = await tenant.api.post('/streams', { name: `t-${randomUUID()}`, ...body });
  expect(res.status).toBe(201);
  return res.body as { id: string };
};

beforeAll(async () => {
  platform = await startTestPlatform({ mode, label: 'streams-tail', env: { WELLSTREAM_POKE_INTERVAL_MS: '300', WELLSTREAM_TAIL_MAX_PER_CUSTOMER: '2' } });
});
afterAll(async () => {
  for (const c of open) c.close();
  await platform?.stop();
});
beforeEach(async () => {
  tenant = await createTenant(platform.baseUrl);
});
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

it("watches a stream without taking events from its client: both get every event the stream's filters let through", async () => {
  const stream = await createStream({ resource_filter: ['measurement'] });
  const client = track(await connectStream(platform.baseUrl, tenant, stream.id));
  await eventually(async () => (await members(stream.id)) === 1, 30_000);
  const watcher = await tail(stream.id);
  expect(watcher.status).toBe(200);
  expect(watcher.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect((await watcher.waitFor((e) => e.event === 'poke', 5_000)).json()).toEqual({ ts: expect.any(String), stream: stream.id, tail: true });

  const users = Array.from({ length: 10 }, (_, i) => `tail-u${i}-${randomUUID().slice(0, 6)}`);
  const wanted = users.flatMap((u) => [0, 1, 2, 3, 4].map((n) => `${u}/m${n}`));
  await publish(platform.eventLog, tenant, [
    ...users.flatMap((u) => [0, 1, 2, 3, 4].map((n) => ({ userId: u, mark: `${u}/m${n}` }))),
    ...users.map((u) => ({ userId: u, resource: 'sleep' as const, mark: `${u}/sleep` })),
  ]);
  await eventually(async () => marksOf(client).length >= wanted.length && marksOf(watcher).length >= wanted.length, 30_000);
  await new Promise((r) => setTimeout(r, 500));
  expect([...marksOf(client)].sort()).toEqual([...wanted].sort());
  expect([...marksOf(watcher)].sort()).toEqual([...wanted].sort());
  // Each user's events in order on the tail too.
  for (const u of users) expect(marksOf(watcher).filter((m) => m.startsWith(`${u}/`))).toEqual([0, 1, 2, 3, 4].map((n) => `${u}/m${n}`));
  expect(await members(stream.id)).toBe(1);

  // Resumed after the last id of each partition it saw: only what came since.
  const last = new Map<string, string>();
  for (const e of watcher.events) if (e.id) last.set(e.id.split('-')[0], e.id);
  watcher.close();
  await publish(platform.eventLog, tenant, users.slice(0, 3).map((u) => ({ userId: u, mark: `${u}/later` })));
  const resumed = await tail(stream.id, { 'last-event-id': [...last.values()].join(',') });
  expect(resumed.status).toBe(200);
  await eventually(async () => marksOf(resumed).length >= 3, 30_000);
  await new Promise((r) => setTimeout(r, 500));
  expect([...marksOf(resumed)].sort()).toEqual(users.slice(0, 3).map((u) => `${u}/later`).sort());
});

it('answers 404 for an unknown stream, 400 for a malformed Last-Event-ID and 429 past the tail quota, before streaming', async () => {
  const stream = await createStream();
  const unknown = await tail('no-such-stream');
  expect(unknown.status).toBe(404);
  expect(JSON.parse(unknown.errorBody!)).toEqual({ errors: [expect.stringMatching(/not found/)] });
  const bad = await tail(stream.id, { 'last-event-id': '3-1,x' });
  expect(bad.status).toBe(400);
  expect(JSON.parse(bad.errorBody!)).toEqual({ errors: { 'Last-Event-ID': [expect.any(String)] } });
  expect((await tail(stream.id)).status).toBe(200);
  expect((await tail(stream.id)).status).toBe(200);
  const third = await tail(stream.id);
  expect(third.status).toBe(429);
  expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(JSON.parse(third.errorBody!)).toEqual({ message: expect.stringMatching(/at most 2 stream tails/) });
  expect(await members(stream.id)).toBe(0);
});
