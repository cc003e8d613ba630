/**
 * The SDK fails clearly: against a loopback server that never answers, answers HTML or goes away,
 * each call ends within its timeout with a typed error naming the URL and status; aborts are typed;
 * base URLs are checked before anything is sent. Against a real platform: Dates are sent in the
 * interface's time format, and a duplicate uid is a ConflictError carrying the interface's 422.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { AbortedError, ConflictError, ParameterError, TimeoutError, UnexpectedResponseError, ValidationError, Wellstream } from '../src';
import { sdkTenant } from './sdk-fixtures';

jest.setTimeout(60_000);
let server: http.Server;
let origin = '';
let platform: TestPlatform;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url?.startsWith('/silent')) return; // never answers
    if (req.url?.startsWith('/html')) {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<!doctype html><title>Welcome to nginx</title>');
    }
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<html>Cannot GET</html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  platform = await startTestPlatform();
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await platform?.stop();
});

it('ends a call to a server that never answers within its timeout, with a TimeoutError', async () => {
  const started = Date.now();
  const err = await new Wellstream({ baseUrl: `${origin}/silent/v2`, token: 't', timeoutMs: 300 }).streams.list().catch((e) => e);
  expect(err).toBeInstanceOf(TimeoutError);
  expect(err.message).toBe(`GET ${origin}/silent/v2/streams got no answer within 300 ms`);
  expect(Date.now() - started).toBeLessThan(2_000);
  // Per call, and by default (30 s) on every call.
  expect(await new Wellstream({ baseUrl: `${origin}/silent/v2`, token: 't' }).streams.list(undefined, { timeoutMs: 200 }).catch((e) => e)).toBeInstanceOf(TimeoutError);
  // AbortSignal.timeout() of the caller is a timeout too, not a raw DOMException.
  expect(await new Wellstream({ baseUrl: `${origin}/silent/v2`, token: 't' }).streams.list(undefined, { signal: AbortSignal.timeout(200) }).catch((e) => e)).toBeInstanceOf(TimeoutError);
});

it('turns an abort into an AbortedError', async () => {
  const stop = new AbortController();
  setTimeout(() => stop.abort(), 100);
  const err = await new Wellstream({ baseUrl: `${origin}/silent/v2`, token: 't' }).streams.list(undefined, { signal: stop.signal }).catch((e) => e);
  expect(err).toBeInstanceOf(AbortedError);
  expect(err.message).toMatch(/^GET .*\/silent\/v2\/streams was aborted$/);
});

it('refuses an HTML answer with an UnexpectedResponseError naming URL and status, with the /v2 hint', async () => {
  const page = await new Wellstream({ baseUrl: `${origin}/html/v2`, token: 't' }).streams.list().catch((e) => e);
  expect(page).toBeInstanceOf(UnexpectedResponseError);
  expect(page).toMatchObject({ status: 200, url: `${origin}/html/v2/streams`, contentType: 'text/html' });
  expect(page.message).toMatch(/answered 200 with text\/html, not the API's JSON: <!doctype html>/);
  const missing = await new Wellstream({ baseUrl: `${origin}/api`, token: 't' }).streams.list().catch((e) => e);
  expect(missing).toBeInstanceOf(UnexpectedResponseError);
  expect(missing.status).toBe(404);
  expect(missing.message).toMatch(/is \/v2 missing from the base URL/);
});

it('checks the base URL before sending anything', () => {
  const refused = (baseUrl: string) => {
    try {
      new Wellstream({ baseUrl, token: 't' });
    } catch (err) {
      expect(err).toBeInstanceOf(ParameterError);
      return (err as Error).message;
    }
    throw new Error(`accepted ${baseUrl}`);
  };
  expect(refused('127.0.0.1:8080/v2')).toMatch(/with its scheme, e\.g\. http:\/\/127\.0\.0\.1:8080\/v2/);
  expect(refused('ftp://example.com/v2')).toMatch(/http:\/\/ or https:\/\//);
  expect(refused('http://127.0.0.1:8080')).toMatch(/has no path: the API is under \/v2, e\.g\. http:\/\/127\.0\.0\.1:8080\/v2/);
  expect(refused('http://127.0.0.1:8080/v2?token=x')).toMatch(/query/);
  expect(new Wellstream({ baseUrl: 'https://api.example.com/wellstream/v2/', token: 't' }).baseUrl).toBe('https://api.example.com/wellstream/v2');
});

it('sends Dates in the interface time format, and a duplicate uid is a ConflictError with the 422 body', async () => {
  const t = await sdkTenant(platform.baseUrl);
  await t.client.users.create(t.orgId, { uid: 'dates-1' });
  const dup = await t.client.users.create(t.orgId, { uid: 'dates-1' }).catch((e) => e);
  expect(dup.body).toEqual({ errors: { uid: ['already exists'] } });
  expect(dup).toBeInstanceOf(ConflictError);
  expect(dup).toMatchObject({ status: 422, body: { errors: { uid: ['already exists'] } } });
  const bad = await t.client.users.create(t.orgId, { uid: String(Date.now()) }).catch((e) => e);
  expect(bad).toBeInstanceOf(ValidationError);
  expect(bad.message).toMatch(/phone number.*Date\.now\(\)/);

  const { mobile } = await t.client.users.get(t.orgId, 'dates-1');
  const at = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 1_000 * 15 + 987); // today, 00:00:15.987 UTC
  const second = `${at.toISOString().slice(0, 19)}Z`;
  const stored = await t.client.mobile.ingest(mobile.token, {
    records: [{ type: 'measurement', source: { type: 'withings' }, log_id: 'd-1', start_time: at, end_time: at, metrics: [{ type: 'body_weight', unit: 'kg', value: 70, origin: 'device' }] }],
  });
  expect(stored.data[0]).toMatchObject({ start_time: second, end_time: second });
  const read = await t.client.records.list(t.orgId, 'dates-1', 'measurements', { start_date: at, end_date: at });
  expect(read.data.map((r) => ('log_id' in r ? r.log_id : r.id))).toEqual(['d-1']);
  const batches = await t.client.notifications.listBatches(t.orgId, { start_time: new Date(Date.now() - 60_000), end_time: new Date() });
  expect(batches.$response.status).toBe(200);
});
