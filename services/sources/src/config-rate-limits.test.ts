/**
 * The configuration reference shows each provider's documented limits in the very syntax
 * WELLSTREAM_SOURCE_<TYPE>_RATE_LIMITS takes: what it shows must parse back to the same windows.
 */
import { formatRateLimits, parseRateLimits } from './config';
import { PROVIDER_DEFAULTS, PROVIDER_TYPES } from './providers/provider-defaults';

it.each(PROVIDER_TYPES)('%s: the documented limits, written out, parse back to themselves', (type) => {
  const windows = PROVIDER_DEFAULTS[type].rateLimits;
  expect(parseRateLimits(formatRateLimits(windows))).toEqual(windows);
});

it('writes each window in its largest whole unit', () => {
  expect(formatRateLimits([{ limit: 500, windowMs: 15 * 60_000 }, { limit: 5000, windowMs: 86_400_000 }, { limit: 3, windowMs: 90_000 }])).toBe('500/15m,5000/1d,3/90s');
});
