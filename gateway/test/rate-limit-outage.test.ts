/**
 * The gateway's rate limit while its store fails: fail-open serves (limits counted in process),
 * fail-closed answers 503 {"message"} with Retry-After; never a 500. The limiter and the error
 * edge are the gateway's own, over a store that refuses every call. The operator's usage read
 * answers 503 in both modes (a process's own share of the count is not the token's usage).
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { errorHandler, route } from '@wellstream/http';
import { createLogger } from '@wellstream/logging';
import { FaultTolerantRateLimitStore, RateLimitFailureMode, RateLimitStore } from '@wellstream/ratelimit';
import type { DeveloperIdentity } from '../src/accounts/authenticate.usecase';
import { rateLimiter } from '../src/auth/rate-limit';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { clearOfTheHourTurn } from '@wellstream/testing';
import { AccountRepository } from '../src/accounts/account.repository';
import { operatorReadRoutes } from '../src/accounts/reads/operator-reads.routes';

const refusing: RateLimitStore = {
  hit: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
  usage: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
  healthy: async () => false,
  close: async () => undefined,
};

async function serve(mode: RateLimitFailureMode) {
  const logger = createLogger('rate-limit-outage-test');
  const app = express();
  const identity: DeveloperIdentity = { kind: 'developer', customerId: 'cus_1', tokenHash: 'hash-1', rateLimitPerHour: 2 };
  const limit = rateLimiter(new FaultTolerantRateLimitStore(refusing, { mode, logger }));
  app.get(
    '/thing',
    route(async (_req, res) => {
      await limit(identity, res);
      res.json({ ok: true });
    }),
  );
  app.use(errorHandler(logger));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/thing`, close: () => server.close() };
}

it('fail-open: keeps serving and still limits per token in process', async () => {
  await clearOfTheHourTurn(10_000); // the three requests count within one clock hour
  const s = await serve('open');
  try {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await fetch(s.url)).status);
    expect(statuses).toEqual([200, 200, 429]);
  } finally {
    s.close();
  }
});

it('fail-closed: answers 503 {"message"} with Retry-After', async () => {
  const s = await serve('closed');
  try {
    const res = await fetch(s.url);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    expect(await res.json()).toEqual({ message: expect.stringMatching(/rate limit/i) });
  } finally {
    s.close();
  }
});

it('the operator\'s token usage read answers 503 {"message"} with Retry-After while the store is down, in either mode', async () => {
  const store = new SqliteDocumentStore(':memory:');
  const repo = await AccountRepository.open(store);
  await repo.customers.insertOne({ _id: 'cus_1', name: 'C', created_at: '2026-01-01T00:00:00.000Z' });
  await repo.tokens.insertOne({ _id: 'a'.repeat(64), customer_id: 'cus_1', rate_limit_per_hour: 5, created_at: '2026-01-01T00:00:00.000Z', revoked_at: null, prefix: 'wst_abcdefgh' });
  for (const mode of ['open', 'closed'] as const) {
    const app = express();
    app.use(operatorReadRoutes({ repo, rateLimits: new FaultTolerantRateLimitStore(refusing, { mode, logger: createLogger('usage-outage-test') }) }));
    app.use(errorHandler(createLogger('usage-outage-test')));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2/admin/customers/cus_1`;
      for (const url of [`${base}/tokens`, `${base}/tokens/${'a'.repeat(64)}`]) {
        const res = await fetch(url);
        expect([mode, res.status, res.headers.get('retry-after')]).toEqual([mode, 503, '5']);
        expect(await res.json()).toEqual({ message: expect.stringMatching(/usage/i) });
      }
      // Reads that need no usage still answer.
      expect((await fetch(base)).status).toBe(200);
    } finally {
      server.close();
    }
  }
  await store.close();
});
