import { platformDefaultOrder } from './source-priority';

describe('the platform default source order', () => {
  it('ranks devices, then apps (Strava, its definition says), then the phone aggregators, then the demo', () => {
    expect(platformDefaultOrder()).toEqual(['withings', 'oura', 'polar', 'dexcom', 'whoop', 'strava', 'apple_health', 'health_connect', 'samsung_health', 'demo']);
  });
});
