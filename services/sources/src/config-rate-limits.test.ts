/**
 * The configuration reference shows each provider's documented limits in the very syntax
 * WELLSTREAM_SOURCE_<TYPE>_RATE_LIMITS takes: what it shows must parse back to the same windows.
 */
import { formatRateLimits, loadSourcesConfig, parseRateLimits } from './config';
import { PROVIDER_DEFAULTS, PROVIDER_TYPES } from './providers/provider-defaults';

it.each(PROVIDER_TYPES)('%s: the documented limits, written out, parse back to themselves', (type) => {
  const windows = PROVIDER_DEFAULTS[type].rateLimits;
  expect(parseRateLimits(formatRateLimits(windows))).toEqual(windows);
});

it('writes each window in its largest whole unit', () => {
  expect(formatRateLimits([{ limit: 500, windowMs: 15 * 60_000 }, { limit: 5000, windowMs: 86_400_000 }, { limit: 3, windowMs: 90_000 }])).toBe('500/15m,5000/1d,3/90s');
});

it('keeps documented per-user limits per provider, replaced by WELLSTREAM_SOURCE_<TYPE>_USER_RATE_LIMITS', () => {
  const base = { WELLSTREAM_GATEWAY_KEYS: 'k'.repeat(40), WELLSTREAM_SOURCE_GOOGLE_HEALTH_CLIENT_ID: 'id', WELLSTREAM_SOURCE_GOOGLE_HEALTH_CLIENT_SECRET: 'secret', WELLSTREAM_SOURCE_OURA_CLIENT_ID: 'id', WELLSTREAM_SOURCE_OURA_CLIENT_SECRET: 'secret' };
  const documented = loadSourcesConfig(base);
  expect(documented.providers.google_health?.userRateLimits).toEqual([{ limit: 300, windowMs: 60_000 }]);
  // A provider documenting none keeps the application's windows alone, as before.
  expect(documented.providers.oura?.userRateLimits).toEqual([]);
  const custom = loadSourcesConfig({ ...base, WELLSTREAM_SOURCE_GOOGLE_HEALTH_USER_RATE_LIMITS: '200/1m,5000/1d' });
  expect(custom.providers.google_health?.userRateLimits).toEqual([{ limit: 200, windowMs: 60_000 }, { limit: 5000, windowMs: 86_400_000 }]);
  expect(() => loadSourcesConfig({ ...base, WELLSTREAM_SOURCE_GOOGLE_HEALTH_USER_RATE_LIMITS: 'lots' })).toThrow(/USER_RATE_LIMITS/);
});
