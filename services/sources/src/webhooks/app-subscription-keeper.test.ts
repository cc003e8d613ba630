/**
 * The app-subscription keeper with a provider whose budget background sync has spent (the state
 * after a restart with history to fetch): the subscription is still made at once, from the share
 * kept for calls a person waits on; and a round the provider fails is tried again within seconds.
 */
import { systemClock } from '@wellstream/clock';
import { createLogger } from '@wellstream/logging';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import type { ConnectionRepository } from '../connections/connection.repository';
import type { Provider, ProviderRegistry } from '../providers/provider-registry';
import { AppSubscription, ProviderError, ProviderHttp, ProviderResponse } from '../providers/provider.port';
import { MemoryProviderBudgetStore } from '../providers/budget/provider-budget.memory';
import { RateLimitedHttp } from '../providers/rate-limited-http';
import type { TokenVault } from '../vault/token-vault';
import type { AppSubscriptionSecrets } from './app-subscription-secrets';
import { AppSubscriptionKeeper, retryDelayMs } from './app-subscription-keeper';

const ok: ProviderResponse = { status: 200, headers: {}, body: '[]' };

function setup(failFirst = 0) {
  const calls: string[] = [];
  let held: AppSubscription[] = [];
  let failures = failFirst;
  const transport: ProviderHttp = { send: async () => ok };
  // 10 a minute: background sync may spend 8, the keeper's two calls need the other two.
  const http = new RateLimitedHttp(transport, new MemoryProviderBudgetStore(), { key: 'strava', windows: [{ limit: 10, windowMs: 60_000 }], fallbackWaitMs: 60_000 });
  // The keeper's own client: what it was handed decides which share of the budget the call spends.
  const call = async (client: ProviderHttp, what: string) => {
    await client.send({ method: 'GET', url: `https://provider.example/${what}` });
    calls.push(what);
    if (failures > 0) {
      failures--;
      throw new ProviderError('temporary', 'provider answered 503', { status: 503 });
    }
  };
  const provider = {
    type: 'strava',
    settings: {},
    http,
    adapter: {
      appSubscriptions: {
        wanted: () => [{ key: 'events' }],
        list: async (client: ProviderHttp) => (await call(client, 'list'), held),
        create: async (client: ProviderHttp) => {
          await call(client, 'create');
          held = [{ id: '1', key: 'events' }];
          return { id: '1', key: 'events' };
        },
        renew: async (_h: unknown, _s: unknown, sub: AppSubscription) => sub,
        remove: async () => undefined,
      },
    },
  } as unknown as Provider;
  const spendBackgroundShare = async () => {
    for (let i = 0; i < 8; i++) await http.for('connection').send({ method: 'GET', url: 'https://provider.example/data' });
    await expect(http.for('connection').send({ method: 'GET', url: 'https://provider.example/data' })).rejects.toMatchObject({ kind: 'rate_limited' });
  };
  const open = () =>
    AppSubscriptionKeeper.open(new SqliteDocumentStore(':memory:'), {
      registry: { all: () => [provider] } as unknown as ProviderRegistry,
      connections: { anyOf: async () => true } as unknown as ConnectionRepository,
      secrets: { add: async () => undefined, remove: async () => undefined } as unknown as AppSubscriptionSecrets,
      vault: { mac: () => 'verification-token-0123456789abcdef' } as unknown as TokenVault,
      clock: systemClock,
      logger: createLogger('keeper-test'),
    });
  return { calls, held: () => held, spendBackgroundShare, open };
}

describe('AppSubscriptionKeeper', () => {
  it('makes the subscription although background sync spent its share of the budget', async () => {
    const t = setup();
    await t.spendBackgroundShare();
    const keeper = await t.open();
    keeper.kick();
    await keeper.settled();
    expect(t.calls).toEqual(['list', 'create']);
    expect(t.held()).toHaveLength(1);
    await keeper.stop();
  });

  it('tries a failed round again within seconds, not at the next hourly round', async () => {
    const t = setup(1);
    const keeper = await t.open();
    keeper.kick();
    await keeper.settled();
    expect(t.held()).toHaveLength(0);
    const started = Date.now();
    while (t.held().length === 0 && Date.now() - started < 15_000) await new Promise((r) => setTimeout(r, 100));
    expect(t.held()).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    await keeper.stop();
  }, 20_000);

  it('waits 5 s, 10 s, 20 s … at most five minutes, or what the provider asked for up to an hour', () => {
    expect([1, 2, 3, 10].map((n) => retryDelayMs(n))).toEqual([5_000, 10_000, 20_000, 300_000]);
    expect(retryDelayMs(1, 42_000)).toBe(42_000);
    expect(retryDelayMs(1, 5 * 3600_000)).toBe(3600_000);
  });
});
