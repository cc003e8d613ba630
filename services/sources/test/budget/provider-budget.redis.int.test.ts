/**
 * The ProviderBudgetStore contract on Redis: two clients are two replicas sharing one budget; the
 * scripts still run after the server forgot them (EVALSHA falls back to EVAL).
 */
import { realServers, uniqueTestName } from '@wellstream/testing';
import { RedisProviderBudgetStore } from '../../src/providers/budget/provider-budget.redis';
import { providerBudgetContract } from './provider-budget.contract';

const prefix = `${uniqueTestName('pb')}:`;
const open = async () => new RedisProviderBudgetStore({ url: realServers().redisUrl, keyPrefix: prefix });

providerBudgetContract('redis', async () => ({ open }));

describe('RedisProviderBudgetStore', () => {
  it('still counts after the server forgot its scripts, and its keys expire after their window', async () => {
    const store = await open();
    try {
      await store.redis.script('FLUSH');
      const now = Date.now();
      expect((await store.take(`flush-${now}`, [{ limit: 1, windowMs: 60_000 }], 1, now)).allowed).toBe(true);
      const ttl = await store.redis.pttl(store.counterKey(`flush-${now}`, 60_000, now));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(65_000);
    } finally {
      await store.close();
    }
  });
});
