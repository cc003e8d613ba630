import { MINUTE_MS, type ProviderDefinition } from './provider-definition';

/** Withings Public API; services/sources/src/providers/withings/README.md cites each page. */
export const withings = {
  type: 'withings',
  name: 'Withings',
  kind: 'cloud',
  app: false,
  resources: ['measurement', 'sleep', 'summary', 'workout', 'intraday'],
  tile: { initials: 'Wi', color: '#1f2a44', position: 1 },
  addresses: { authUrl: 'https://account.withings.com/oauth2_user/authorize2', tokenUrl: 'https://wbsapi.withings.net/v2/oauth2', apiUrl: 'https://wbsapi.withings.net' },
  // Withings ("API rate limit"): 120 requests per minute per application.
  limits: { windows: [{ limit: 120, windowMs: MINUTE_MS }], fallbackWaitMs: MINUTE_MS },
  capabilities: { webhooks: true, polling: true, pkce: false, historyDays: null, consent: 'per-scope' },
} as const satisfies ProviderDefinition;
