/**
 * The providers this service connects, with their production addresses (the contract's defaults
 * for WELLSTREAM_SOURCE_<TYPE>_AUTH_URL/_TOKEN_URL/_API_URL) and what the marketplace says about
 * each. The adapters' READMEs give the documents these come from.
 */
export const PROVIDER_TYPES = ['oura', 'withings', 'dexcom', 'polar', 'whoop', 'strava'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

export interface ProviderDefaults {
  authUrl: string;
  tokenUrl: string;
  apiUrl: string;
  /** Documented history limit in days, when there is one. */
  historyDays: number | null;
  /** Whether data arrives by notification; otherwise it is polled. */
  notifications: boolean;
  /** Requests our app may make per minute, all users together (kept below the documented limit). */
  appRequestsPerMinute: number;
}

export const PROVIDER_DEFAULTS: Record<ProviderType, ProviderDefaults> = {
  oura: {
    authUrl: 'https://cloud.ouraring.com/oauth/authorize',
    tokenUrl: 'https://api.ouraring.com/oauth/token',
    apiUrl: 'https://api.ouraring.com',
    historyDays: null,
    notifications: true,
    // Oura documents 5,000 requests per 5 minutes.
    appRequestsPerMinute: 900,
  },
  withings: {
    authUrl: 'https://account.withings.com/oauth2_user/authorize2',
    tokenUrl: 'https://wbsapi.withings.net/v2/oauth2',
    apiUrl: 'https://wbsapi.withings.net',
    historyDays: null,
    notifications: true,
    // Withings documents 120 requests per minute per application.
    appRequestsPerMinute: 110,
  },
  dexcom: {
    authUrl: 'https://api.dexcom.com/v2/oauth2/login',
    tokenUrl: 'https://api.dexcom.com/v2/oauth2/token',
    apiUrl: 'https://api.dexcom.com',
    historyDays: null,
    notifications: false,
    // Dexcom documents 60,000 calls per hour per application.
    appRequestsPerMinute: 900,
  },
  polar: {
    authUrl: 'https://flow.polar.com/oauth2/authorization',
    tokenUrl: 'https://polarremote.com/v2/oauth2/token',
    apiUrl: 'https://www.polaraccesslink.com',
    // Sleep is kept 28 days, exercises 30 days of uploads: the shortest limit bounds the backfill.
    historyDays: 28,
    notifications: true,
    // Polar allows 500 + 20 per user per 15 minutes: about 33 a minute with no users.
    appRequestsPerMinute: 30,
  },
  whoop: {
    authUrl: 'https://api.prod.whoop.com/oauth/oauth2/auth',
    tokenUrl: 'https://api.prod.whoop.com/oauth/oauth2/token',
    apiUrl: 'https://api.prod.whoop.com/developer',
    historyDays: null,
    notifications: true,
    // WHOOP documents 100 requests per minute and 10,000 per day per application.
    appRequestsPerMinute: 90,
  },
  strava: {
    authUrl: 'https://www.strava.com/oauth/authorize',
    tokenUrl: 'https://www.strava.com/oauth/token',
    apiUrl: 'https://www.strava.com/api/v3',
    historyDays: null,
    notifications: true,
    // Strava allows 100 reads per 15 minutes (1,000 a day): 6 a minute keeps under the first.
    appRequestsPerMinute: 6,
  },
};

export const isProviderType = (t: string): t is ProviderType => (PROVIDER_TYPES as readonly string[]).includes(t);
