import { MINUTE_MS, type ProviderDefinition } from './provider-definition';

/** Suunto Cloud API (API Zone); services/sources/src/providers/suunto/README.md cites each page. */
export const suunto = {
  type: 'suunto',
  name: 'Suunto',
  kind: 'cloud',
  app: false,
  resources: ['sleep', 'summary', 'workout', 'intraday'],
  tile: { initials: 'Su', color: '#0a64a0', position: 9 },
  // "How to start": the authorization API at https://cloudapi-oauth.suunto.com (/oauth/authorize,
  // /oauth/token); the data API at https://cloudapi.suunto.com (Workout API code samples).
  addresses: { authUrl: 'https://cloudapi-oauth.suunto.com/oauth/authorize', tokenUrl: 'https://cloudapi-oauth.suunto.com/oauth/token', apiUrl: 'https://cloudapi.suunto.com' },
  // Suunto's pages name no request limit (the subscription key is reviewed and granted per
  // application). The safer reading is a budget of our own, two requests a second for the
  // application, which a 30-day backfill (about a dozen requests) never meets; a 429 from Suunto's
  // API gateway still pauses the application until its Retry-After.
  limits: { windows: [{ limit: 120, windowMs: MINUTE_MS }], fallbackWaitMs: MINUTE_MS },
  // The authorize page documents response_type, client_id and redirect_uri only: no PKCE, no scope
  // (consent is the whole grant). History:
  // no documented depth (a 24/7 read spans at most 28 days, a window, not a limit).
  capabilities: { webhooks: true, polling: true, pkce: false, historyDays: null, consent: 'all-or-nothing' },
  // Every data call carries the application's API Zone subscription key (Ocp-Apim-Subscription-Key);
  // webhooks are signed with the notification secret set in the application's settings.
  credentials: [
    { key: 'SUBSCRIPTION_KEY', required: true, description: 'our Suunto API Zone subscription key (primary or secondary), sent as Ocp-Apim-Subscription-Key on every data call; Suunto is offered only when it, the client id and the secret are set' },
    { key: 'NOTIFICATION_SECRET', required: false, description: 'the notification secret set in our Suunto application\'s settings, which signs its webhooks (X-HMAC-SHA256-Signature); unset: every notification is refused and new data comes by the fallback poll only' },
  ],
} as const satisfies ProviderDefinition;
