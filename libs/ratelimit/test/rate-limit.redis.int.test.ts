/**
 * The RateLimitStore contract on Redis, plus the script-cache fallback (EVALSHA → EVAL).
 */
import { realServers, uniqueTestName } from '@wellstream/testing';
import { RedisRateLimitStore } from '../src';
import { rateLimitContract } from '../src/rate-limit.contract';

const prefix = `${uniqueTestName('rl')}:`;
const open = async () => new RedisRateLimitStore({ url: realServers().redisUrl, keyPrefix: prefix });

rateLimitContract('redis', async () => ({
  open,
  ttlMs: (store, key, windowMs, now) => (store as RedisRateLimitStore).redis.pttl((store as RedisRateLimitStore).keyFor(key, windowMs, now)),
}));

describe('RedisRateLimitStore', () => {
  it('still counts after the server forgot its scripts (EVALSHA falls back to EVAL)', async () => {
    const store = await open();
    try {
      await store.redis.script('FLUSH');
      const r = await store.hit(`flush-${Date.now()}`, 1, 60_000);
      expect(r.allowed).toBe(true);
      expect(r.remaining).toBe(0);
    } finally {
      await store.close();
    }
  });
});
