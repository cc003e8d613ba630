/**
 * Retries of 429 and 503 against a loopback server that answers them on demand: Retry-After is
 * honoured, retries are bounded and can be turned off, and the last answer is thrown typed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RateLimitError, ServerError, Wellstream } from '../src';

let server: http.Server;
let script: { status: number; headers?: Record<string, string> }[] = [];
const seen: number[] = [];
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(Date.now());
    const next = script.shift() ?? { status: 200 };
    res.writeHead(next.status, { 'content-type': 'application/json', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': '2000000000', ...next.headers });
    res.end(JSON.stringify(next.status === 200 ? { streams: [], meta: { total: 0 } } : { message: `answer ${next.status}` }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});
afterAll(() => server.close());
beforeEach(() => (seen.length = 0));

it('waits Retry-After on 429 and 503, then succeeds', async () => {
  script = [{ status: 429, headers: { 'retry-after': '1' } }, { status: 503, headers: { 'retry-after': '1' } }];
  const list = await new Wellstream({ baseUrl: base, token: 't' }).streams.list();
  expect(list.$response.rateLimit).toMatchObject({ limit: 10, remaining: 3 });
  expect(seen).toHaveLength(3);
  expect(seen[1] - seen[0]).toBeGreaterThanOrEqual(950);
  expect(seen[2] - seen[1]).toBeGreaterThanOrEqual(950);
});

it('backs off with jitter when there is no Retry-After, and gives up after maxRetries', async () => {
  script = [{ status: 503 }, { status: 503 }, { status: 503 }];
  const err = await new Wellstream({ baseUrl: base, token: 't', retry: { maxRetries: 2, baseDelayMs: 20 } }).streams.list().catch((e) => e);
  expect(err).toBeInstanceOf(ServerError);
  expect(err.body).toEqual({ message: 'answer 503' });
  expect(seen).toHaveLength(3);
});

it('does not retry when turned off', async () => {
  script = [{ status: 429, headers: { 'retry-after': '1' } }];
  const err = await new Wellstream({ baseUrl: base, token: 't', retry: { enabled: false } }).streams.list().catch((e) => e);
  expect(err).toBeInstanceOf(RateLimitError);
  expect(err.retryAfterSeconds).toBe(1);
  expect(seen).toHaveLength(1);
});
