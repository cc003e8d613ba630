import { DAY_MS, MINUTE_MS, type ProviderDefinition } from './provider-definition';

/** Strava API v3; services/sources/src/providers/strava/README.md cites each page. */
export const strava = {
  type: 'strava',
  name: 'Strava',
  kind: 'cloud',
  app: true,
  resources: ['workout'],
  tile: { initials: 'St', color: '#fc4c02', position: 5 },
  addresses: { authUrl: 'https://www.strava.com/oauth/authorize', tokenUrl: 'https://www.strava.com/oauth/token', apiUrl: 'https://www.strava.com/api/v3' },
  // Strava ("Rate Limits"): "non-upload" (every call we make) 100 per 15 minutes and 1,000 per
  // day; the 15 minutes reset at :00/:15/:30/:45 and the day at midnight UTC, as our windows do.
  limits: { windows: [{ limit: 100, windowMs: 15 * MINUTE_MS }, { limit: 1000, windowMs: DAY_MS }], fallbackWaitMs: 15 * MINUTE_MS },
  // Strava's authentication document describes no PKCE parameters.
  capabilities: { webhooks: true, polling: true, pkce: false, historyDays: null, consent: 'per-scope' },
} as const satisfies ProviderDefinition;
