import { MINUTE_MS, type ProviderDefinition } from './provider-definition';

/** Garmin Connect Developer Program, Health API; services/sources/src/providers/garmin/README.md cites each page. */
export const garmin = {
  type: 'garmin',
  name: 'Garmin Connect',
  kind: 'cloud',
  app: false,
  resources: ['summary', 'intraday', 'sleep', 'workout', 'measurement'],
  tile: { initials: 'Ga', color: '#007cc3', position: 8 },
  // OAuth 2.0 with PKCE ("OAuth2 PKCE Specification"): consent at connect.garmin.com/oauth2Confirm,
  // tokens at diauth.garmin.com; every data path hangs from apis.garmin.com/wellness-api/rest.
  addresses: { authUrl: 'https://connect.garmin.com/oauth2Confirm', tokenUrl: 'https://diauth.garmin.com/di-oauth2-service/oauth/token', apiUrl: 'https://apis.garmin.com' },
  // Health API, "Backfill": an evaluation key may ask for 100 days of data a minute (a production
  // key 10,000). Our backfill asks one day of one summary type per request, so a request is a day;
  // the pulls a ping names are counted in the same budget (Garmin documents no pull limit: the
  // smaller figure is the safe one). A production key sets WELLSTREAM_SOURCE_GARMIN_RATE_LIMITS.
  limits: { windows: [{ limit: 100, windowMs: MINUTE_MS }], fallbackWaitMs: MINUTE_MS },
  // Consent: the authorize step takes no scope (the user's permission choices are Garmin's, and a
  // refused call says so). Data arrives by ping (Garmin forbids pulling without one in production): the poll reads nothing.
  capabilities: { webhooks: true, polling: false, pkce: true, historyDays: null, consent: 'all-or-nothing' },
  note: 'Garmin sends history in the minutes after you connect: older days appear gradually.',
} as const satisfies ProviderDefinition;
