/**
 * /health names a failing or hanging dependency within its time bound instead of hanging, and
 * /metrics serves prom-client's text format with request counts by route template and status.
 */
import type { AddressInfo } from 'node:net';
import { createLogger } from '@wellstream/logging';
import { createServiceApp, route } from './create-service-app';
import { ASSERTION_HEADER, signAssertion } from './gateway-assertion';
import { healthReport } from './health';
import { routeTemplate, ServiceMetrics } from './metrics';

describe('health report', () => {
  it('is ok when every check passes', async () => {
    expect(await healthReport({ store: async () => true, event_log: () => true })).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('answers 503 naming a dependency that is down or does not answer in time', async () => {
    const started = Date.now();
    const report = await healthReport({ store: () => new Promise<boolean>(() => undefined), event_log: async () => false, other: async () => true }, { timeoutMs: 200 });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(report).toEqual({ status: 503, body: { status: 'unavailable', checks: { store: 'timeout', event_log: 'down', other: 'ok' } } });
  });

  it('answers 200 degraded when only optional dependencies fail, and down when a check throws', async () => {
    const report = await healthReport({ store: async () => true, rate_limit_store: async () => Promise.reject(new Error('refused')) }, { optional: ['rate_limit_store'] });
    expect(report).toEqual({ status: 200, body: { status: 'degraded', checks: { store: 'ok', rate_limit_store: 'down' } } });
  });
});

const KEY = 'k'.repeat(40);
/** What the gateway adds to a request it forwards (services refuse requests without it). */
const signed = (target: string) => {
  const requestId = `req-${target}`.replace(/[^\w.:-]/g, '-');
  const assertion = signAssertion(KEY, { method: 'GET', target, requestId, customerId: '', organizationId: '', operator: false });
  return { headers: { 'x-request-id': requestId, [ASSERTION_HEADER]: assertion } };
};

describe('metrics', () => {
  it('templates ids out of paths', () => {
    expect(routeTemplate('/v2/organizations/org_123/users/patient-0001/measurements')).toBe('/v2/organizations/:id/users/:id/measurements');
    expect(routeTemplate('/v2/streams/abc/connect')).toBe('/v2/streams/:id/connect');
    expect(routeTemplate('/v2/mobile/records')).toBe('/v2/mobile/records');
  });

  it('serves /metrics with default metrics, requests by route and status, and custom gauges', async () => {
    const metrics = new ServiceMetrics('test');
    metrics.gauge('outbox_backlog', 'entries', async () => [{ value: 3 }]);
    const app = createServiceApp({
      logger: createLogger('http-test'),
      metrics,
      gatewayKeys: [KEY],
      routes: (a) => a.get('/things/:id', route(async (req, res) => void res.json({ id: req.params.id }))),
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await fetch(`${base}/things/1`, signed('/things/1'));
      await fetch(`${base}/things/2`, signed('/things/2'));
      await fetch(`${base}/nothing/here`, signed('/nothing/here'));
      const res = await fetch(`${base}/metrics`);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await res.text();
      expect(text).toContain('http_requests_total{method="GET",route="/things/:id",status="200",service="test"} 2');
      expect(text).toContain('route="/nothing/here",status="404"');
      expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",[^}]*route="\/things\/:id"/);
      expect(text).toContain('nodejs_eventloop_lag_seconds');
      expect(text).toContain('outbox_backlog{service="test"} 3');
      expect(text).toContain('sse_clients{service="test"} 0');
    } finally {
      server.close();
    }
  });
});
