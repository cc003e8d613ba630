import type { AddressInfo } from 'node:net';
import { createLogger } from '@wellstream/logging';
import { createServiceApp } from './create-service-app';
import { route } from './create-service-app';
import { ASSERTION_HEADER, signAssertion } from './gateway-assertion';

const KEY = 'k'.repeat(40);

describe('createServiceApp error handling', () => {
  it('answers 400 {"errors":[…]} when express cannot decode a path parameter (not a 500)', async () => {
    const app = createServiceApp({
      logger: createLogger('http-test'),
      gatewayKeys: [KEY],
      routes: (a) => a.get('/things/:id', route(async (req, res) => void res.json({ id: req.params.id }))),
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const signed = (target: string) => {
      const requestId = 'req-1';
      const assertion = signAssertion(KEY, { method: 'GET', target, requestId, customerId: '', organizationId: '', operator: false });
      return { headers: { 'x-request-id': requestId, [ASSERTION_HEADER]: assertion } };
    };
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const bad = await fetch(`${base}/things/%E0%A4%A`, signed('/things/%E0%A4%A'));
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ errors: ['The request path is not valid percent-encoding.'] });
      const ok = await fetch(`${base}/things/%C3%BC`, signed('/things/%C3%BC'));
      expect(await ok.json()).toEqual({ id: 'ü' });
    } finally {
      server.close();
    }
  });
});
