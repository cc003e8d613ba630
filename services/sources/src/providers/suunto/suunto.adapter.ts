/**
 * The Suunto provider adapter (Suunto Cloud API, apizone.suunto.com): OAuth 2.0 without PKCE with
 * HTTP Basic client authentication and rotating JWT tokens, the API Zone subscription key on every
 * data call, workouts, daily activity statistics, sleep and 24/7 activity samples, deauthorization
 * on disconnect, and the webhooks set in Suunto's application settings (HMAC-signed with our
 * notification secret; no subscription API). README.md says what each call and field is and why.
 */
import { providerDefinition } from '@wellstream/providers';
import { unknownResource } from '../kit/adapter-wiring';
import { ProviderAdapter } from '../provider.port';
import { fetchActivity, fetchDailyActivity, fetchSleep, fetchWorkout, fetchWorkouts } from './suunto-fetch';
import { authorizeUrl, exchangeCode, refresh, revoke } from './suunto-oauth';
import { parseNotification } from './suunto-webhooks';

/** Type, name, addresses, limits and capabilities: libs/providers/src/suunto.ts. */
const definition = providerDefinition('suunto');

/**
 * What Suunto notifies is polled at most every six hours, a net for a lost notification; the daily
 * statistics once a day ("We advise to fetch the activity data every 24 hours").
 */
const NOTIFIED_POLL_MS = 6 * 3600_000;

export const suuntoAdapter: ProviderAdapter = {
  type: definition.type,
  pkce: definition.capabilities.pkce,
  // The 24/7 reads span at most 28 days; whole UTC days are read, so 27-day windows stay inside it.
  resources: [
    { name: 'workouts', recordTypes: ['workout'], maxWindowDays: 28, pollAtMostEveryMs: NOTIFIED_POLL_MS },
    { name: 'daily_activity', recordTypes: ['summary'], maxWindowDays: 27, pollAtMostEveryMs: 24 * 3600_000 },
    { name: 'sleep', recordTypes: ['sleep'], maxWindowDays: 27, pollAtMostEveryMs: NOTIFIED_POLL_MS },
    { name: 'activity', recordTypes: ['intraday'], maxWindowDays: 27, pollAtMostEveryMs: NOTIFIED_POLL_MS },
  ],
  authorizeUrl: (settings, params) => authorizeUrl(settings, params),
  exchangeCode: (http, settings, params, now) => exchangeCode(http, settings, params, now),
  refresh,
  revoke,

  async fetchWindow(http, settings, accessToken, resource, window) {
    const c = { http, settings, accessToken };
    if (resource === 'workouts') return fetchWorkouts(c, window);
    if (resource === 'daily_activity') return fetchDailyActivity(c, window);
    if (resource === 'sleep') return fetchSleep(c, window);
    if (resource === 'activity') return fetchActivity(c, window);
    throw unknownResource('Suunto', resource);
  },

  // WORKOUT_CREATED names its workout: read it by key, whatever its age.
  fetchObject: (http, settings, accessToken, resource, objectId) => (resource === 'workouts' ? fetchWorkout({ http, settings, accessToken }, objectId) : Promise.resolve([])),

  parseNotification,
};
