/**
 * The Oura provider adapter (API v2, https://cloud.ouraring.com/v2/docs): OAuth2 without PKCE,
 * daily_activity/sleep/workout documents and the heart-rate series, app-level webhook
 * subscriptions with a verification handshake, and HMAC-signed notifications. The parts live in
 * the oura-*.ts modules next to this one; README.md says what each call and field is and why.
 */
import { providerDefinition } from '@wellstream/providers';
import { oauthWithoutPkce, unknownResource } from '../kit/adapter-wiring';
import { ProviderAdapter } from '../provider.port';
import { fetchDocuments, DOCUMENT_COLLECTIONS } from './oura-fetch';
import { fetchHeartRate } from './oura-heartrate';
import { authorizeUrl, exchangeCode, fetchProviderUserId, refresh, revoke } from './oura-oauth';
import { create, list, remove, renew, wanted } from './oura-subscriptions';
import { handshake, parseNotification } from './oura-webhooks';

/** Type, name, addresses, limits and capabilities: libs/providers/src/oura.ts. */
const definition = providerDefinition('oura');

export const ouraAdapter: ProviderAdapter = {
  type: definition.type,
  // Oura's FAQ suggests 1-3 months per historical request; heart rate is fetched a UTC day at a time
  // because a day is its record (see oura-heartrate.ts).
  resources: [
    { name: 'daily_activity', recordTypes: ['summary'], maxWindowDays: 30 },
    { name: 'sleep', recordTypes: ['sleep'], maxWindowDays: 30 },
    { name: 'workout', recordTypes: ['workout'], maxWindowDays: 30 },
    { name: 'heartrate', recordTypes: ['intraday'], maxWindowDays: 1 },
  ],
  // Oura's authentication document describes no PKCE parameters: pkce false.
  ...oauthWithoutPkce({ authorizeUrl, exchangeCode, refresh, revoke, fetchProviderUserId }),
  // "she can enable and disable scopes based on her preferences"; the redirect's `scope` says which.
  consentScopes: { data: [{ scope: 'daily' }, { scope: 'heartrate' }, { scope: 'workout' }] },

  async fetchWindow(http, settings, accessToken, resource, window) {
    if (resource === 'heartrate') return fetchHeartRate(http, settings, accessToken, window);
    if (resource in DOCUMENT_COLLECTIONS) return fetchDocuments(http, settings, accessToken, resource, window);
    throw unknownResource('Oura', resource);
  },

  handshake,
  parseNotification,
  appSubscriptions: { wanted, list, create, renew, remove },
};
