import { MINUTE_MS, type ProviderDefinition } from './provider-definition';

/** Oura API v2; services/sources/src/providers/oura/README.md cites each page. */
export const oura = {
  type: 'oura',
  name: 'Oura',
  kind: 'cloud',
  app: false,
  resources: ['sleep', 'summary', 'workout', 'intraday'],
  tile: { initials: 'Ou', color: '#2d2d2d', position: 2 },
  addresses: { authUrl: 'https://cloud.ouraring.com/oauth/authorize', tokenUrl: 'https://api.ouraring.com/oauth/token', apiUrl: 'https://api.ouraring.com' },
  // Oura (API v2, "Rate Limits", v1.27): 5,000 requests per 5 minutes.
  limits: { windows: [{ limit: 5000, windowMs: 5 * MINUTE_MS }], fallbackWaitMs: 5 * MINUTE_MS },
  // Oura's authentication document describes no PKCE parameters.
  capabilities: { webhooks: true, polling: true, pkce: false, historyDays: null, consent: 'per-scope' },
} as const satisfies ProviderDefinition;
