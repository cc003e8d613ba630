/**
 * The Strava provider adapter (API v3, https://developers.strava.com/docs): OAuth2 with rotating
 * refresh tokens and deauthorization, the athlete's activities as `workout` records, the app's one
 * push subscription with its hub.challenge validation, and unsigned webhook events (activity
 * create/update/delete, athlete deauthorization). The parts live in the strava-*.ts modules next to
 * this one; README.md says what each call and field is and why.
 */
import { providerDefinition } from '@wellstream/providers';
import { oauthWithoutPkce, unknownResource } from '../kit/adapter-wiring';
import { ProviderAdapter } from '../provider.port';
import { fetchActivities, fetchActivity } from './strava-activities';
import { authorizeUrl, checkAccess, exchangeCode, fetchProviderUserId, refresh, revoke, STRAVA_CONSENT_SCOPES } from './strava-oauth';
import { create, list, remove, renew, wanted } from './strava-subscriptions';
import { ACTIVITIES, handshake, parseNotification } from './strava-webhooks';

/** Type, name, addresses, limits and capabilities: libs/providers/src/strava.ts. */
const definition = providerDefinition('strava');

export const stravaAdapter: ProviderAdapter = {
  type: definition.type,
  // 90 days: usually one 200-activity page plus the empty page that ends it (see strava-activities.ts).
  resources: [{ name: ACTIVITIES, recordTypes: ['workout'], maxWindowDays: 90 }],
  // Strava's authentication document describes no PKCE parameters: pkce false.
  ...oauthWithoutPkce({ authorizeUrl, exchangeCode, refresh, revoke, fetchProviderUserId }),
  consentScopes: STRAVA_CONSENT_SCOPES,
  // Strava signs no event: a deauthorization is acted on only once the athlete's token is refused.
  unsignedNotifications: true,
  checkAccess,

  async fetchWindow(http, settings, accessToken, resource, window, ctx) {
    if (resource === ACTIVITIES) return fetchActivities(http, settings, accessToken, window, ctx);
    throw unknownResource('Strava', resource);
  },

  async fetchObject(http, settings, accessToken, resource, objectId) {
    if (resource === ACTIVITIES) return fetchActivity(http, settings, accessToken, objectId);
    throw unknownResource('Strava', resource);
  },

  handshake,
  parseNotification,
  appSubscriptions: { wanted, list, create, renew, remove },
};
