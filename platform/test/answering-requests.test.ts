/**
 * Every process counts the requests it is answering, from arrival to response head, so that
 * customers' history reads (replays, paged REST reads) give way to them (libs/bus time-slice.ts).
 * Here the platform holds a request (records waits for an unknown well-formed mobile token) and
 * the count must cover it until the answer (in one process the gateway hands requests to the
 * services' apps directly, so the gateway's count covers the service's work); an open SSE stream
 * must not count once its head went out, or history reads would give way while any stream is open.
 */
import { answeringNow } from '@wellstream/bus';
import { connectSse, createTenant, eventually, startTestPlatform, TestPlatform } from '@wellstream/testing';

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { WELLSTREAM_RECORDS_USER_WAIT_MS: '1500' } });
});
afterAll(() => platform.stop());

it('counts a held request until it is answered', async () => {
  await eventually(async () => answeringNow() === 0);
  const held = fetch(`${platform.url}/v2/mobile/records?token=${'x'.repeat(40)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ records: [{ type: 'measurement' }] }),
  });
  await eventually(async () => answeringNow() === 1);
  const res = await held;
  expect(res.status).toBe(401);
  await res.arrayBuffer();
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
