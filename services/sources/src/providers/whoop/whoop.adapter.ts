/**
 * The WHOOP provider adapter (developer API v2, https://developer.whoop.com): OAuth 2.0 without
 * PKCE with the `offline` scope for rotating refresh tokens, cycles and recoveries as summaries,
 * sleeps, workouts and body measurements, revocation, and the app-level webhooks registered in
 * WHOOP's dashboard (HMAC-signed; no subscription API, so no appSubscriptions). The parts live in
 * the whoop-*.ts modules next to this one; README.md says what each call and field is and why.
 */
import { providerDefinition } from '@wellstream/providers';
import { oauthWithoutPkce, unknownResource } from '../kit/adapter-wiring';
import { ProviderAdapter } from '../provider.port';
import { COLLECTIONS, fetchBodyMeasurement, fetchCollection, fetchRecoveries } from './whoop-fetch';
import { WHOOP_FALLBACK_POLL_MS } from './whoop-limits';
import { fetchObject } from './whoop-objects';
import { authorizeUrl, exchangeCode, fetchProviderUserId, refresh, revoke } from './whoop-oauth';
import { parseNotification } from './whoop-webhooks';

/** Type, name, addresses, limits and capabilities: libs/providers/src/whoop.ts. */
const definition = providerDefinition('whoop');

export const whoopAdapter: ProviderAdapter = {
  type: definition.type,
  // WHOOP documents no history limit or window size; pages hold at most 25 objects (about 25 days
  // of cycles). Recoveries are fetched 10 days at a time so their cycles come in one page. What
  // WHOOP notifies, and body measurements, are polled once a day (whoop-limits.ts): the daily limit
  // is per application, so each user's polls are what it is spent on.
  resources: [
    { name: 'cycle', recordTypes: ['summary'], maxWindowDays: 30 },
    { name: 'recovery', recordTypes: ['summary'], maxWindowDays: 10, pollAtMostEveryMs: WHOOP_FALLBACK_POLL_MS },
    { name: 'sleep', recordTypes: ['sleep'], maxWindowDays: 30, pollAtMostEveryMs: WHOOP_FALLBACK_POLL_MS },
    { name: 'workout', recordTypes: ['workout'], maxWindowDays: 30, pollAtMostEveryMs: WHOOP_FALLBACK_POLL_MS },
    { name: 'body_measurement', recordTypes: ['measurement'], maxWindowDays: 30, pollAtMostEveryMs: WHOOP_FALLBACK_POLL_MS },
  ],
  // WHOOP's OAuth page describes no PKCE parameters: pkce false.
  ...oauthWithoutPkce({ authorizeUrl, exchangeCode, refresh, revoke, fetchProviderUserId }),
  // The token answer's `scope` says what was granted; read:profile (the user id) and offline bring no data.
  consentScopes: { data: ['read:recovery', 'read:cycles', 'read:sleep', 'read:workout', 'read:body_measurement'].map((scope) => ({ scope })) },

  async fetchWindow(http, settings, accessToken, resource, window) {
    const ctx = { http, settings, accessToken };
    if (Object.hasOwn(COLLECTIONS, resource)) return fetchCollection(ctx, resource, window);
    if (resource === 'recovery') return fetchRecoveries(ctx, window);
    if (resource === 'body_measurement') return fetchBodyMeasurement(ctx, window);
    throw unknownResource('WHOOP', resource);
  },

  // A webhook names its object: read it by id, whatever its age (whoop-objects.ts).
  fetchObject: (http, settings, accessToken, resource, objectId) => fetchObject({ http, settings, accessToken }, resource, objectId),

  parseNotification,
};
