import { isCountryCode, isSupportedTimeZone, locationProblems, supportedTimeZones } from './location-policy';

describe('location policy', () => {
  it('knows the 400+ Olson zones of the runtime', () => {
    expect(supportedTimeZones().length).toBeGreaterThan(400);
  });

  it.each(['Europe/Berlin', 'America/Argentina/Buenos_Aires', 'UTC', 'Etc/GMT+5', 'US/Eastern', 'Asia/Kolkata'])('accepts the zone %s', (z) =>
    expect(isSupportedTimeZone(z)).toBe(true),
  );

  it.each(['Mars/Olympus_Mons', 'utc', '+05:00', 'Europe/berlin ', '', 'Etc/GMT+99'])('refuses the zone %j', (z) =>
    expect(isSupportedTimeZone(z)).toBe(false),
  );

  it('checks ISO 3166-1 alpha-2 codes', () => {
    expect(isCountryCode('DE')).toBe(true);
    expect(isCountryCode('AQ')).toBe(true);
    expect(isCountryCode('ZZ')).toBe(false);
    expect(isCountryCode('DEU')).toBe(false);
  });

  it('keys errors by field and allows nulls', () => {
    expect(locationProblems({ timezone: null, country_code: null })).toEqual({});
    expect(Object.keys(locationProblems({ timezone: 'Nowhere/Land', country_code: 'XX' }))).toEqual(['location.timezone', 'location.country_code']);
  });
});
