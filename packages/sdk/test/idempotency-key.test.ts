/**
 * The Idempotency-Key the client sends: one key per call on every attempt of an operation that
 * honours it (retries of a create after 503 or a dropped connection reach the server with the same
 * key), the caller's own key when given, none on operations that do not declare the header.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Wellstream } from '../src';

let server: http.Server;
let script: ('503' | 'drop' | '201')[] = [];
const keys: (string | undefined)[] = [];
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    keys.push(req.headers['idempotency-key'] as string | undefined);
    const next = script.shift() ?? '201';
    if (next === 'drop') return void req.socket.destroy();
    res.writeHead(next === '503' ? 503 : 201, { 'content-type': 'application/json', ...(next === '503' ? { 'retry-after': '0' } : {}) });
    res.end(JSON.stringify(next === '503' ? { message: 'busy' } : { id: 'x', uid: 'u' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});
afterAll(() => server.close());
beforeEach(() => (keys.length = 0));

const client = () => new Wellstream({ baseUrl: base, token: 't', retry: { baseDelayMs: 5 } });

it('sends one key on every attempt of a call, a new one for the next call', async () => {
  script = ['503', 'drop', '201'];
  await client().users.create('org', { uid: 'u' });
  expect(keys).toHaveLength(3);
  expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(new Set(keys).size).toBe(1);
  script = ['201'];
  await client().users.create('org', { uid: 'u' });
  expect(keys[3]).not.toBe(keys[0]);
});

it("sends the caller's key, and none where the operation does not honour it", async () => {
  script = ['201'];
  await client().users.create('org', { uid: 'u' }, { idempotencyKey: 'mine-1' });
  expect(keys).toEqual(['mine-1']);
  script = ['201'];
  await client().call('createRule', { path: { org_id: 'o', uid: 'u' }, body: {} } as never);
  expect(keys[1]).toBeUndefined();
});
