/**
 * Every service and the gateway serve Prometheus metrics at /metrics: requests by route and status
 * (the gateway labels proxied paths by template), the outbox backlog of producers, consumer lag of
 * consumer groups, rate-limit store errors, and prom-client's default metrics.
 */
import { createTenant } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(() => platform.stop());

const scrape = async (url: string) => {
  const res = await fetch(`${url}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
};

it('serves gateway and service metrics', async () => {
  const t = await createTenant(platform.baseUrl);
  expect((await t.api.get('/streams')).status).toBe(200);
  expect((await t.api.get(`/organizations/${t.organizationId}/users/nobody`)).status).toBe(404);

  const gateway = await scrape(platform.url);
  expect(gateway).toMatch(/http_requests_total\{method="GET",route="\/v2\/streams",status="200",service="gateway"\} 1/);
  // A template, never the raw path (the in-process service's own route, or ids replaced when proxied).
  expect(gateway).toMatch(/http_requests_total\{method="GET",route="\/v2\/organizations\/:[a-zA-Z]+\/users\/:[a-zA-Z]+",status="404",service="gateway"\} 1/);
  expect(gateway).not.toContain(t.organizationId);
  for (const name of ['rate_limit_store_errors{service="gateway"} 0', 'outbox_backlog{service="gateway"}', 'nodejs_eventloop_lag_seconds{service="gateway"}', 'sse_clients{service="gateway"}']) {
    expect(gateway).toContain(name);
  }

  const byName = Object.fromEntries(platform.services.map((s) => [s.name, s.url]));
  expect(await scrape(byName.users)).toContain('outbox_backlog{service="users"}');
  const records = await scrape(byName.records);
  expect(records).toContain('outbox_oldest_age_seconds{service="records"}');
  expect(records).toMatch(/consumer_lag_seconds\{group="records\.[a-z-]+",service="records"\}/);
  expect(await scrape(byName.streams)).toMatch(/http_requests_total\{method="GET",route="\/v2\/streams",status="200",service="streams"\} 1/);
  expect(await scrape(byName.notifications)).toContain('nodejs_heap_size_used_bytes{service="notifications"}');
  expect(await scrape(byName.rules)).toContain('outbox_backlog{service="rules"}');
});

it('answers exactly {"status":"ok"} while every dependency is healthy', async () => {
  const res = await fetch(`${platform.url}/health`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: 'ok' });
});
