/**
 * The verifying middleware on a real express app over real HTTP: what a caller that reaches a
 * service's port directly can and cannot do.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { captureLogs, createLogger } from '@wellstream/logging';
import { callerOf, isOperatorCall } from './caller';
import { createServiceApp, route } from './create-service-app';
import { ASSERTION_HEADER, AssertedRequest, signAssertion } from './gateway-assertion';

const NEW_KEY = 'new-key-'.padEnd(40, 'n');
const OLD_KEY = 'old-key-'.padEnd(40, 'o');

let server: Server;
let base: string;

beforeAll(async () => {
  const app = createServiceApp({
    logger: createLogger('trust-test'),
    gatewayKeys: [NEW_KEY, OLD_KEY],
    routes: (a) => {
      a.get('/v2/whoami', route(async (req, res) => void res.json({ ...callerOf(req), operator: isOperatorCall(req) })));
      a.post('/v2/whoami', route(async (req, res) => void res.json(callerOf(req))));
      a.get('/openapi.json', (_req, res) => void res.json({ openapi: '3.1.0' }));
    },
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const caller: Omit<AssertedRequest, 'method' | 'target'> = { requestId: 'req-42', customerId: 'cus_1', organizationId: 'org_1', operator: false };
const identityHeaders = { 'x-request-id': 'req-42', 'x-wellstream-customer-id': 'cus_1', 'x-wellstream-organization-id': 'org_1' };

function call(method: string, target: string, assertion?: string, extra: Record<string, string> = {}) {
  return fetch(base + target, { method, headers: { ...identityHeaders, ...(assertion ? { [ASSERTION_HEADER]: assertion } : {}), ...extra } });
}

describe('gateway trust', () => {
  it('believes a caller the gateway signed for, with either key of a rotation', async () => {
    for (const key of [NEW_KEY, OLD_KEY]) {
      const res = await call('GET', '/v2/whoami?x=1', signAssertion(key, { ...caller, method: 'GET', target: '/v2/whoami?x=1' }));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ customerId: 'cus_1', organizationId: 'org_1', operator: false });
    }
  });

  it('answers 401 {"message"} to forged identity headers without an assertion, and logs why', async () => {
    const lines: string[] = [];
    const stop = captureLogs((l) => lines.push(l));
    try {
      const res = await call('GET', '/v2/whoami');
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: expect.any(String) });
    } finally {
      stop();
    }
    const refusal = lines.map((l) => JSON.parse(l)).find((l) => l.message === 'refused a request the gateway did not vouch for');
    expect(refusal).toMatchObject({ level: 'warn', reason: 'missing', method: 'GET', path: '/v2/whoami' });
  });

  it('refuses an assertion replayed on another path, another method, another query or another caller', async () => {
    const signed = signAssertion(NEW_KEY, { ...caller, method: 'GET', target: '/v2/whoami?x=1' });
    expect((await call('GET', '/v2/whoami?x=1', signed)).status).toBe(200);
    expect((await call('GET', '/v2/whoami?x=2', signed)).status).toBe(401);
    expect((await call('GET', '/v2/elsewhere?x=1', signed)).status).toBe(401);
    expect((await call('POST', '/v2/whoami?x=1', signed)).status).toBe(401);
    expect((await call('GET', '/v2/whoami?x=1', signed, { 'x-wellstream-customer-id': 'cus_2' })).status).toBe(401);
    expect((await call('GET', '/v2/whoami?x=1', signed, { 'x-wellstream-admin': '1' })).status).toBe(401);
    expect((await call('GET', '/v2/whoami?x=1', signed, { 'x-request-id': 'req-43' })).status).toBe(401);
  });

  it('refuses an assertion older than 60 s (or from a clock 60 s ahead), a retired key and a malformed header', async () => {
    const at = (ms: number) => signAssertion(NEW_KEY, { ...caller, method: 'GET', target: '/v2/whoami' }, Date.now() + ms);
    expect((await call('GET', '/v2/whoami', at(-50_000))).status).toBe(200);
    expect((await call('GET', '/v2/whoami', at(-61_000))).status).toBe(401);
    expect((await call('GET', '/v2/whoami', at(61_000))).status).toBe(401);
    const retired = signAssertion('retired-'.padEnd(40, 'r'), { ...caller, method: 'GET', target: '/v2/whoami' });
    expect((await call('GET', '/v2/whoami', retired)).status).toBe(401);
    expect((await call('GET', '/v2/whoami', 'v1.garbage')).status).toBe(401);
  });

  it('records the operator flag only when signed, and serves health and documents to anyone', async () => {
    const op = signAssertion(NEW_KEY, { ...caller, operator: true, method: 'GET', target: '/v2/whoami' });
    const res = await call('GET', '/v2/whoami', op, { 'x-wellstream-admin': '1' });
    expect(await res.json()).toMatchObject({ operator: true });
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/openapi.json`)).status).toBe(200);
  });
});
