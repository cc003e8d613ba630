import { DAY_MS, MINUTE_MS, type ProviderDefinition } from './provider-definition';

/** Google Health API v4 (Fitbit and Pixel); services/sources/src/providers/google_health/README.md cites each page. */
export const googleHealth = {
  type: 'google_health',
  name: 'Google Health (Fitbit, Pixel)',
  kind: 'cloud',
  app: false,
  resources: ['intraday', 'measurement', 'sleep', 'summary', 'workout'],
  tile: { initials: 'GH', color: '#1a73e8', position: 7 },
  // Migration guide, "OAuth Implementation": Google's authorize and token URLs; the data routes hang
  // from https://health.googleapis.com/v4/… (REST reference).
  addresses: { authUrl: 'https://accounts.google.com/o/oauth2/v2/auth', tokenUrl: 'https://oauth2.googleapis.com/token', apiUrl: 'https://health.googleapis.com' },
  // developers.google.com/health/rate-limits: per project 120,000 a minute and 86.4M a day; per user
  // 300 a minute (kept per connection). Over any: 429.
  limits: { windows: [{ limit: 120_000, windowMs: MINUTE_MS }, { limit: 86_400_000, windowMs: DAY_MS }], perUser: [{ limit: 300, windowMs: MINUTE_MS }], fallbackWaitMs: MINUTE_MS },
  // Google's OAuth 2.0 for web server apps takes code_challenge/code_verifier (S256).
  capabilities: { webhooks: true, polling: true, pkce: true, historyDays: null, consent: 'per-scope' },
} as const satisfies ProviderDefinition;
