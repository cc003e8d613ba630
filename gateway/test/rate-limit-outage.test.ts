/**
 * The gateway's rate limit while its store fails: fail-open serves (limits counted in process),
 * fail-closed answers 503 {"message"} with Retry-After; never a 500. The limiter and the error
 * edge are the gateway's own, over a store that refuses every call.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import { errorHandler, route } from '@wellstream/http';
import { createLogger } from '@wellstream/logging';
import { FaultTolerantRateLimitStore, RateLimitFailureMode, RateLimitStore } from '@wellstream/ratelimit';
import type { DeveloperIdentity } from '../src/accounts/authenticate.usecase';
import { rateLimiter } from '../src/auth/rate-limit';

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
