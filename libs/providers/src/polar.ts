import { DAY_MS, MINUTE_MS, type ProviderDefinition } from './provider-definition';

/** Polar AccessLink v3; services/sources/src/providers/polar/README.md cites each page. */
export const polar = {
  type: 'polar',
  name: 'Polar Flow',
  kind: 'cloud',
  app: false,
  resources: ['measurement', 'sleep', 'summary', 'workout', 'intraday'],
  tile: { initials: 'Po', color: '#d10027', position: 3 },
  addresses: { authUrl: 'https://flow.polar.com/oauth2/authorization', tokenUrl: 'https://polarremote.com/v2/oauth2/token', apiUrl: 'https://www.polaraccesslink.com' },
  // Polar ("Rate limiting"): 500 + 20 × users per 15 minutes and 5,000 + 100 × users per 24 hours;
  // the base (no users) is kept: the real limit is only ever higher, and its headers pause us.
  limits: { windows: [{ limit: 500, windowMs: 15 * MINUTE_MS }, { limit: 5000, windowMs: DAY_MS }], fallbackWaitMs: 15 * MINUTE_MS },
  // Sleep is kept 28 days, exercises 30 days of uploads: the shortest limit bounds the backfill.
  capabilities: { webhooks: true, polling: true, pkce: false, historyDays: 28, consent: 'per-scope' },
  // "Only exercises that have been uploaded to Flow after the user is registered with your client
  // will be returned" (AccessLink v3, "List exercises").
  note: 'Polar shares only workouts uploaded after you connect: earlier workouts cannot come.',
} as const satisfies ProviderDefinition;
