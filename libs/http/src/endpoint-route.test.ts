import type { AddressInfo } from 'node:net';
import express from 'express';
import Joi from 'joi';
import { errorHandler } from './create-service-app';
import { createLogger } from '@wellstream/logging';
import { declaredRoute, endpointRoute } from './endpoint-route';

// As @wellstream/endpoints declares it: PUT /v2/things/{thing_id}.
const declaration = { method: 'put', path: '/things/{thing_id}' } as const;

async function serve(app: express.Express) {
  const server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

describe('endpointRoute', () => {
  let base: { url: string; close: () => void };
  beforeAll(async () => {
    const app = express();
    app.use(express.json());
    const checks = [
      { in: 'body', schema: Joi.object({ name: Joi.string() }).unknown(true), kind: 'bad_request', code: 'MALFORMED' },
      { in: 'body', schema: Joi.object({ name: Joi.string().trim().min(1).required() }).options({ stripUnknown: true }), kind: 'unprocessable', code: 'INVALID' },
    ] as const;
    endpointRoute<unknown, { name: string }>(app, declaration, checks, (req, res, { body }) => {
      res.json({ id: req.params.thing_id, body });
    });
    // A service's own handlers at a declared method and path: here a url-encoded form.
    declaredRoute(app, { method: 'post', path: '/things/{thing_id}/form' }, express.urlencoded({ extended: false }), (req, res) => {
      res.json({ id: req.params.thing_id, body: req.body });
    });
    app.use(errorHandler(createLogger('test')));
    base = await serve(app);
  });
  afterAll(() => base.close());

  const put = (path: string, body: unknown, method = 'PUT') =>
    fetch(`${base.url}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('registers the declared method at the declared path, with its parameter names', async () => {
    const res = await put('/v2/things/t1', { name: ' a ', extra: 1 });
    expect(res.status).toBe(200);
    // The handler gets what the last check let through (trimmed, unknown fields stripped).
    expect(await res.json()).toEqual({ id: 't1', body: { name: 'a' } });
    expect((await put('/v2/things/t1', { name: 'a' }, 'POST')).status).toBe(404);
  });

  it('runs the checks in order: a malformed body is the first check’s 400, a bad value the second’s 422', async () => {
    expect((await put('/v2/things/t1', { name: 5 })).status).toBe(400);
    expect((await put('/v2/things/t1', { name: '  ' })).status).toBe(422);
  });

  it('declaredRoute registers the service\'s own handlers at the declared method and path', async () => {
    const res = await fetch(`${base.url}/v2/things/t2/form`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=b' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 't2', body: { name: 'b' } });
    expect((await fetch(`${base.url}/v2/things/t2/form`, { method: 'PUT', body: 'name=b' })).status).toBe(404);
  });
});

describe('declaredRoute with a FHIR operation in its path', () => {
  it('serves `$export` literally (express would read `$` as the end of the pattern)', async () => {
    const app = express();
    declaredRoute(app, { method: 'get', path: '/orgs/{org_id}/fhir/Patient/$export' }, (req, res) => void res.json({ org: req.params.org_id }));
    const base = await serve(app);
    try {
      const res = await fetch(`${base.url}/v2/orgs/o-1/fhir/Patient/$export`);
      expect([res.status, await res.json()]).toEqual([200, { org: 'o-1' }]);
      expect((await fetch(`${base.url}/v2/orgs/o-1/fhir/Patient/export`)).status).toBe(404);
    } finally {
      base.close();
    }
  });
});
