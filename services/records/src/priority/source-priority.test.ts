import { SOURCES, sourceDefinition } from '@wellstream/catalog';
import { platformDefaultOrder } from './source-priority';

describe('the platform default source order', () => {
  it('ranks devices, then apps (Strava, its definition says), then the phone aggregators, then the demo', () => {
    const order = platformDefaultOrder();
    // Every source once, whatever providers are defined (none is listed here by hand).
    expect([...order].sort()).toEqual(SOURCES.map((s) => s.type).sort());
    const tier = (type: string) => {
      const s = sourceDefinition(type)!;
      return s.kind === 'cloud' ? (s.app ? 1 : 0) : s.kind === 'mobile' ? 2 : 3;
    };
    expect(order.map(tier)).toEqual([...order.map(tier)].sort((a, b) => a - b));
    // Within a tier, the catalog's (marketplace) order.
    for (let i = 1; i < order.length; i++) {
      if (tier(order[i]) === tier(order[i - 1])) expect(SOURCES.findIndex((s) => s.type === order[i])).toBeGreaterThan(SOURCES.findIndex((s) => s.type === order[i - 1]));
    }
    expect(order.indexOf('withings')).toBeLessThan(order.indexOf('strava'));
    expect(order.indexOf('strava')).toBeLessThan(order.indexOf('apple_health'));
    expect(order[order.length - 1]).toBe('demo');
  });
});
