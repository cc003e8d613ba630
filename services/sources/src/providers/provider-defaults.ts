import type { BudgetWindow } from './budget/provider-budget.port';

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
  /** What the marketplace tells the user about this provider's data, in words (its documents' limits). */
  note?: string;
  /** Whether data arrives by notification; otherwise it is polled. */
  notifications: boolean;
  /**
   * The provider's documented limits for our application, all users together, in every window it
   * documents (the budget keeps each across replicas; WELLSTREAM_SOURCE_<TYPE>_RATE_LIMITS replaces
   * them for an application granted more). README.md's table cites each page.
   */
  rateLimits: BudgetWindow[];
  /** What a 429 without a readable header waits (the provider's shortest window). */
  rateLimitFallbackMs: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export const PROVIDER_DEFAULTS: Record<ProviderType, ProviderDefaults> = {
  oura: {
    authUrl: 'https://cloud.ouraring.com/oauth/authorize',
    tokenUrl: 'https://api.ouraring.com/oauth/token',
    apiUrl: 'https://api.ouraring.com',
    historyDays: null,
    notifications: true,
    // Oura (API v2, "Rate Limits", v1.27): 5,000 requests per 5 minutes.
    rateLimits: [{ limit: 5000, windowMs: 5 * MINUTE }],
    rateLimitFallbackMs: 5 * MINUTE,
  },
  withings: {
    authUrl: 'https://account.withings.com/oauth2_user/authorize2',
    tokenUrl: 'https://wbsapi.withings.net/v2/oauth2',
    apiUrl: 'https://wbsapi.withings.net',
    historyDays: null,
    notifications: true,
    // Withings ("API rate limit"): 120 requests per minute per application.
    rateLimits: [{ limit: 120, windowMs: MINUTE }],
    rateLimitFallbackMs: MINUTE,
  },
  dexcom: {
    authUrl: 'https://api.dexcom.com/v2/oauth2/login',
    tokenUrl: 'https://api.dexcom.com/v2/oauth2/token',
    apiUrl: 'https://api.dexcom.com',
    historyDays: null,
    notifications: false,
    // Dexcom ("Rate Limiting"): 60,000 calls per hour per application.
    rateLimits: [{ limit: 60_000, windowMs: 60 * MINUTE }],
    rateLimitFallbackMs: MINUTE,
  },
  polar: {
    authUrl: 'https://flow.polar.com/oauth2/authorization',
    tokenUrl: 'https://polarremote.com/v2/oauth2/token',
    apiUrl: 'https://www.polaraccesslink.com',
    // Sleep is kept 28 days, exercises 30 days of uploads: the shortest limit bounds the backfill.
    historyDays: 28,
    // "Only exercises that have been uploaded to Flow after the user is registered with your client
    // will be returned" (AccessLink v3, "List exercises").
    note: 'Polar shares only workouts uploaded after you connect: earlier workouts cannot come.',
    notifications: true,
    // Polar ("Rate limiting"): 500 + 20 × users per 15 minutes and 5,000 + 100 × users per 24 hours;
    // the base (no users) is kept: the real limit is only ever higher, and its headers pause us.
    rateLimits: [{ limit: 500, windowMs: 15 * MINUTE }, { limit: 5000, windowMs: DAY }],
    rateLimitFallbackMs: 15 * MINUTE,
  },
  whoop: {
    authUrl: 'https://api.prod.whoop.com/oauth/oauth2/auth',
    tokenUrl: 'https://api.prod.whoop.com/oauth/oauth2/token',
    apiUrl: 'https://api.prod.whoop.com/developer',
    historyDays: null,
    notifications: true,
    // WHOOP ("API Rate Limiting"): 100 requests per minute and 10,000 per day per client.
    rateLimits: [{ limit: 100, windowMs: MINUTE }, { limit: 10_000, windowMs: DAY }],
    rateLimitFallbackMs: MINUTE,
  },
  strava: {
    authUrl: 'https://www.strava.com/oauth/authorize',
    tokenUrl: 'https://www.strava.com/oauth/token',
    apiUrl: 'https://www.strava.com/api/v3',
    historyDays: null,
    notifications: true,
    // Strava ("Rate Limits"): "non-upload" (every call we make) 100 per 15 minutes and 1,000 per
    // day; the 15 minutes reset at :00/:15/:30/:45 and the day at midnight UTC, as our windows do.
    rateLimits: [{ limit: 100, windowMs: 15 * MINUTE }, { limit: 1000, windowMs: DAY }],
    rateLimitFallbackMs: 15 * MINUTE,
  },
};

export const isProviderType = (t: string): t is ProviderType => (PROVIDER_TYPES as readonly string[]).includes(t);
