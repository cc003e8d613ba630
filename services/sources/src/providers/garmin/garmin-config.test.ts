/**
 * Garmin is offered only when its consumer key and secret are set, with its production addresses
 * and the evaluation key's documented limit unless told otherwise.
 */
import { loadSourcesConfig } from '../../config';
import { MemoryProviderBudgetStore } from '../budget/provider-budget.memory';
import { ProviderRegistry } from '../provider-registry';

const base = { WELLSTREAM_PUBLIC_URL: 'https://ws.example', WELLSTREAM_GATEWAY_KEYS: 'k1:0123456789abcdef0123456789abcdef' };
const transport = { send: async () => ({ status: 500, headers: {}, body: '' }) };

describe('Garmin configuration', () => {
  it('is offered only with both credentials', () => {
    expect(loadSourcesConfig({ ...base }).providers.garmin).toBeUndefined();
    expect(loadSourcesConfig({ ...base, WELLSTREAM_SOURCE_GARMIN_CLIENT_ID: 'key' }).providers.garmin).toBeUndefined();
    const config = loadSourcesConfig({ ...base, WELLSTREAM_SOURCE_GARMIN_CLIENT_ID: 'key', WELLSTREAM_SOURCE_GARMIN_CLIENT_SECRET: 'secret' });
    expect(config.providers.garmin).toEqual({
      clientId: 'key',
      clientSecret: 'secret',
      authUrl: 'https://connect.garmin.com/oauth2Confirm',
      tokenUrl: 'https://diauth.garmin.com/di-oauth2-service/oauth/token',
      apiUrl: 'https://apis.garmin.com',
      rateLimits: [{ limit: 100, windowMs: 60_000 }],
      extra: {},
      userRateLimits: [],
    });
    const registry = new ProviderRegistry(config, transport, new MemoryProviderBudgetStore());
    expect(registry.all().map((p) => p.type)).toEqual(['garmin']);
    expect(registry.get('garmin')!.settings.webhookUrl).toBe('https://ws.example/v2/sources/garmin/webhook');
    expect(loadSourcesConfig({ ...base, WELLSTREAM_SOURCE_GARMIN_CLIENT_ID: 'key', WELLSTREAM_SOURCE_GARMIN_CLIENT_SECRET: 'secret', WELLSTREAM_SOURCE_GARMIN_RATE_LIMITS: '10000/1m' }).providers.garmin!.rateLimits).toEqual([{ limit: 10_000, windowMs: 60_000 }]);
  });
});
