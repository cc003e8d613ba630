/**
 * What a user's location may hold: an Olson time zone the runtime knows (its 400+ canonical names
 * from Intl.supportedValuesOf('timeZone'), plus the aliases its tz database accepts, such as
 * `UTC`, `Etc/GMT+5` or `US/Eastern`), and an ISO 3166-1 alpha-2 country code from the maintained
 * `i18n-iso-countries` list (libphonenumber-js's getCountries() lists calling regions, not ISO 3166-1).
 */
import countries from 'i18n-iso-countries';

const CANONICAL_ZONES = new Set(Intl.supportedValuesOf('timeZone'));
// Olson names: "Area/Location[/Sub]" or a legacy single word ("UTC", "EST5EDT"); case matters.
const OLSON_NAME = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;

export function isSupportedTimeZone(name: string): boolean {
  if (CANONICAL_ZONES.has(name)) return true;
  if (!OLSON_NAME.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The canonical names, sorted, for the marketplace's time-zone picker. */
export const supportedTimeZones = (): string[] => [...CANONICAL_ZONES].sort();

export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && countries.isValid(code);
}

export interface LocationInput {
  timezone?: string | null;
  country_code?: string | null;
}

/** Field errors keyed like `location.timezone`, empty when the location is acceptable. */
export function locationProblems(location: LocationInput, prefix = 'location'): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (location.timezone != null && !isSupportedTimeZone(location.timezone)) {
    errors[`${prefix}.timezone`] = [`"${location.timezone}" is not a supported Olson time zone (e.g. Europe/Berlin)`];
  }
  if (location.country_code != null && !isCountryCode(location.country_code)) {
    errors[`${prefix}.country_code`] = [`"${location.country_code}" is not an ISO 3166-1 alpha-2 country code (e.g. DE)`];
  }
  return errors;
}
