/**
 * Idempotent writes over the real SQLite store and an express app on a port: what the platform
 * suite (test/idempotent-writes.both.test.ts) cannot provoke on demand — a 5xx is not kept, a
 * duplicate that outwaits a running first answers 409 with Retry-After, an abandoned claim is
 * taken over after its lease, an answer past 24 h is not replayed.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@wellstream/logging';
import { randomUUID } from 'node:crypto';
import { ASSERTION_HEADER, CALLER_HEADERS, createServiceApp, IDEMPOTENT_ANSWER_TTL_MS, IDEMPOTENT_CLAIM_LEASE_MS, idempotentWrites, signAssertion } from '@wellstream/http';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { idempotentAnswers } from './idempotent-answers.store';

const KEY = 'test-gateway-key-0123456789abcdef0123456789';

/** What the gateway adds to a developer's request (its signed assertion of the customer). */
function asCustomer(customerId: string): Record<string, string> {
  const requestId = randomUUID();
  const assertion = signAssertion(KEY, { method: 'POST', target: '/w', requestId, customerId, organizationId: '', operator: false });
  return { 'x-request-id': requestId, [CALLER_HEADERS.customerId]: customerId, [ASSERTION_HEADER]: assertion };
}

describe('idempotent writes on the document store', () => {
  let dir: string;
  let store: SqliteDocumentStore;
  let server: http.Server;
  let base: string;
  let clock = 1_000_000;
  let runs = 0;
  let status = 201;
  let release: (() => void) | undefined;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idempotent-'));
    store = new SqliteDocumentStore(path.join(dir, 'svc.db'));
    const answers = await idempotentAnswers(store);
    // The service app as every service has it (body parser keeping the raw bytes, error answers).
    const app = createServiceApp({
      logger: createLogger('test'),
      gatewayKeys: [KEY],
      routes: (router) =>
        router.post('/w', idempotentWrites(answers, { waitMs: 300, pollMs: 20, now: () => clock }), async (_req, res) => {
          runs++;
          if (release === undefined) await new Promise<void>((r) => (release = r));
          res.status(status).json({ run: runs });
        }),
    });
    server = app.listen(0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    release = () => undefined;
    status = 201;
  });

  const post = (key: string, body: unknown = { a: 1 }) =>
    fetch(`${base}/w`, { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key, ...asCustomer('cus_1') }, body: JSON.stringify(body) });

  it('does not keep a 5xx: the retry runs again', async () => {
    status = 503;
    const before = runs;
    expect((await post('five')).status).toBe(503);
    status = 201;
    const retry = await post('five');
    expect(retry.status).toBe(201);
    expect(runs).toBe(before + 2);
    expect((await post('five')).headers.get('idempotent-replayed')).toBe('true');
    expect(runs).toBe(before + 2);
  });

  it('a duplicate waits for a running first, then answers 409 with Retry-After', async () => {
    release = undefined;
    const first = post('slow');
    await new Promise((r) => setTimeout(r, 50));
    const second = await post('slow');
    expect(second.status).toBe(409);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(await second.json()).toEqual({ errors: ['A request with this Idempotency-Key is still running; retry later.'] });
    (release as (() => void) | undefined)?.();
    const answered = await first;
    expect(answered.status).toBe(201);
    const replay = await post('slow');
    expect(await replay.json()).toEqual(await answered.json());
  });

  it('takes over a claim abandoned past its lease, and forgets an answer after 24 h', async () => {
    release = undefined;
    void post('abandoned').catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    clock += IDEMPOTENT_CLAIM_LEASE_MS + 1;
    const before = runs;
    const pending = release as (() => void) | undefined;
    release = () => undefined;
    const takeover = await post('abandoned');
    expect(takeover.status).toBe(201);
    expect(runs).toBe(before + 1);
    pending?.();
    expect((await post('abandoned')).headers.get('idempotent-replayed')).toBe('true');
    clock += IDEMPOTENT_ANSWER_TTL_MS + 1;
    const later = await post('abandoned');
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(runs).toBe(before + 2);
  });
});
