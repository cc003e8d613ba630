import { PROVIDERS, PROVIDER_TYPES, isProviderType, providerDefinition } from './index';

describe('provider definitions', () => {
  it('name each type once, usable in WELLSTREAM_SOURCE_<TYPE>_* and a URL path', () => {
    expect(new Set(PROVIDER_TYPES).size).toBe(PROVIDERS.length);
    for (const t of PROVIDER_TYPES) expect(t).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it('give each marketplace tile its own place', () => {
    expect(new Set(PROVIDERS.map((p) => p.tile.position)).size).toBe(PROVIDERS.length);
  });

  it('document at least one limit window, each positive', () => {
    for (const p of PROVIDERS) {
      expect(p.limits.windows.length).toBeGreaterThan(0);
      for (const w of p.limits.windows) expect(w.limit > 0 && w.windowMs > 0).toBe(true);
    }
  });

  it('are found by type, and only theirs', () => {
    expect(providerDefinition('polar').capabilities.historyDays).toBe(28);
    expect(isProviderType('oura')).toBe(true);
    expect(isProviderType('apple_health')).toBe(false);
  });
});
