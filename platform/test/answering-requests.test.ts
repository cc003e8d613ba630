/**
 * Every process counts the requests it is answering, from arrival to response head, so that
 * customers' history reads (replays, paged REST reads) give way to them (libs/bus time-slice.ts).
 * Here a request is held by its own body, sent in two parts with a pause between, and the count
 * must cover it until the answer (in one process the gateway hands requests to the
 * services' apps directly, so the gateway's count covers the service's work); an open SSE stream
 * must not count once its head went out, or history reads would give way while any stream is open.
 */
import http from 'node:http';
import { answeringNow } from '@wellstream/bus';
import { connectSse, createTenant, eventually } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.stop());

it('counts a held request until it is answered', async () => {
  await eventually(async () => answeringNow() === 0);
  const body = JSON.stringify({ records: [{ type: 'measurement' }] });
  const req = http.request(`${platform.url}/v2/mobile/records?token=${'x'.repeat(40)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answered = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  await eventually(async () => answeringNow() === 1);
  // Still held: the rest of the body has not come.
  await new Promise((r) => setTimeout(r, 200));
  expect(answeringNow()).toBe(1);
  req.end(body.slice(10));
  expect(await answered).toBe(401);
  await eventually(async () => answeringNow() === 0);
});

it('stops counting an SSE stream once its head went out', async () => {
  const tenant = await createTenant(platform.baseUrl);
  const replay = await connectSse(`${platform.baseUrl}/replay?token=${tenant.token}`);
  try {
    expect(replay.status).toBe(200);
    await eventually(async () => answeringNow() === 0);
  } finally {
    replay.close();
  }
});
