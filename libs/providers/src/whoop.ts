import { DAY_MS, MINUTE_MS, type ProviderDefinition } from './provider-definition';

/** WHOOP API v2; services/sources/src/providers/whoop/README.md cites each page. */
export const whoop = {
  type: 'whoop',
  name: 'WHOOP',
  kind: 'cloud',
  app: false,
  resources: ['measurement', 'sleep', 'summary', 'workout'],
  tile: { initials: 'Wh', color: '#111111', position: 6 },
  addresses: { authUrl: 'https://api.prod.whoop.com/oauth/oauth2/auth', tokenUrl: 'https://api.prod.whoop.com/oauth/oauth2/token', apiUrl: 'https://api.prod.whoop.com/developer' },
  // WHOOP "API Rate Limiting" (developer.whoop.com/docs/developing/rate-limiting): "All clients are
  // subject to two sets of rate limiting … 100 requests per minute. 10,000 requests per day", per
  // client (our application, all users together), raised on request. Over either limit: 429.
  limits: { windows: [{ limit: 100, windowMs: MINUTE_MS }, { limit: 10_000, windowMs: DAY_MS }], fallbackWaitMs: MINUTE_MS },
  // WHOOP's OAuth page describes no PKCE parameters.
  capabilities: { webhooks: true, polling: true, pkce: false, historyDays: null, consent: 'per-scope' },
} as const satisfies ProviderDefinition;
