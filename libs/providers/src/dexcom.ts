import { MINUTE_MS, type ProviderDefinition } from './provider-definition';

/** Dexcom API v3; services/sources/src/providers/dexcom/README.md cites each page. */
export const dexcom = {
  type: 'dexcom',
  name: 'Dexcom',
  kind: 'cloud',
  app: false,
  resources: ['cgm', 'measurement'],
  tile: { initials: 'Dx', color: '#58a618', position: 4 },
  addresses: { authUrl: 'https://api.dexcom.com/v2/oauth2/login', tokenUrl: 'https://api.dexcom.com/v2/oauth2/token', apiUrl: 'https://api.dexcom.com' },
  // Dexcom ("Rate Limiting"): 60,000 calls per hour per application.
  limits: { windows: [{ limit: 60_000, windowMs: 60 * MINUTE_MS }], fallbackWaitMs: MINUTE_MS },
  // No notifications: polled only. Dexcom's authentication page documents no code_challenge, and
  // one scope (offline_access): consent is the whole grant.
  capabilities: { webhooks: false, polling: true, pkce: false, historyDays: null, consent: 'all-or-nothing' },
} as const satisfies ProviderDefinition;
