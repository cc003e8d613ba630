/**
 * The gateway's identity cache never outlives a revocation: a second gateway on the same stores
 * and event log, with a minute-long cache, stops accepting a token it has cached as soon as the
 * first gateway revokes it (the token-revocations event, not the cache's expiry).
 */
import { ApiClient, createTenant, eventually, TEST_ADMIN_TOKEN, TEST_GATEWAY_KEY } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { composeGateway, loadGatewayConfig, RunningGateway } from '../src';

let platform: TestPlatform;
let second: RunningGateway;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { WELLSTREAM_GATEWAY_KEYS: TEST_GATEWAY_KEY } });
  const config = loadGatewayConfig(
    {
      WELLSTREAM_DATA_DIR: platform.dataDir,
      WELLSTREAM_PORT: '0',
      WELLSTREAM_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
      WELLSTREAM_GATEWAY_KEYS: TEST_GATEWAY_KEY,
      WELLSTREAM_TOKEN_CACHE_MS: '60000',
      WELLSTREAM_LOG_LEVEL: 'silent',
    },
    { servicesInProcess: true },
  );
  second = await composeGateway(config, { eventLog: platform.eventLog }, platform.gateway.directory);
});
afterAll(async () => {
  await second?.stop();
  await platform?.stop();
});

it('a revocation on one gateway reaches the cache of another at once', async () => {
  const tenant = await createTenant(platform.baseUrl);
  const viaSecond = new ApiClient(`${second.url}/v2`, tenant.token);
  expect((await viaSecond.get('/streams')).status).toBe(200);
  expect((await viaSecond.get('/streams')).status).toBe(200); // now served from its cache
  const started = Date.now();
  expect((await new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN).delete(`/admin/tokens/${tenant.token}`)).status).toBe(200);
  expect((await tenant.api.get('/streams')).status).toBe(401); // the revoking gateway: at once
  await eventually(async () => (await viaSecond.get('/streams')).status === 401, 5_000, 10);
  expect(Date.now() - started).toBeLessThan(5_000); // far inside the minute-long cache
});

it('caches only what lets a request through: an unknown token stays unknown, a new one works at once', async () => {
  const tenant = await createTenant(platform.baseUrl);
  const via = (token: string) => new ApiClient(`${second.url}/v2`, token);
  expect((await via('wst_not-a-token').get('/streams')).status).toBe(401);
  const t = await new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN).post(`/admin/customers/${tenant.customerId}/tokens`, {});
  expect((await via(t.body.token).get('/streams')).status).toBe(200);
});

it('deleting a customer stops its cached tokens on every gateway at once', async () => {
  const tenant = await createTenant(platform.baseUrl);
  const viaSecond = new ApiClient(`${second.url}/v2`, tenant.token);
  expect((await viaSecond.get('/streams')).status).toBe(200);
  expect((await tenant.api.get('/streams')).status).toBe(200);
  expect((await new ApiClient(platform.baseUrl, TEST_ADMIN_TOKEN).delete(`/admin/customers/${tenant.customerId}`)).status).toBe(200);
  expect((await tenant.api.get('/streams')).status).toBe(401);
  await eventually(async () => (await viaSecond.get('/streams')).status === 401, 5_000, 10);
});
