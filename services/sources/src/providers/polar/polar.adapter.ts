/**
 * The Polar AccessLink v3 adapter (https://www.polar.com/accesslink-api/): OAuth2 with HTTP Basic
 * client authentication and no refresh tokens, the mandatory user registration after consent,
 * exercises, sleep, daily activity, continuous heart rate and physical info, one app-level webhook
 * whose signature secret Polar returns once, and HMAC-signed notifications. The parts live in the
 * polar-*.ts modules next to this one; README.md says what each call and field is and why.
 */
import { providerDefinition } from '@wellstream/providers';
import { ProviderAdapter, ProviderError } from '../provider.port';
import { ACTIVITY_WINDOW_DAYS, fetchActivities } from './polar-activities';
import { fetchExercises } from './polar-exercises';
import { fetchHeartRate } from './polar-heartrate';
import { afterConnect, authorizeUrl, exchangeCode, refresh, revoke } from './polar-oauth';
import { fetchPhysicalInfo } from './polar-physical';
import { fetchSleep } from './polar-sleep';
import { create, list, remove, renew, wanted } from './polar-subscriptions';
import { parseNotification } from './polar-webhooks';

/** Type, name, addresses, limits and capabilities: libs/providers/src/polar.ts. */
const definition = providerDefinition('polar');

export const polarAdapter: ProviderAdapter = {
  type: definition.type,
  resources: [
    // /v3/exercises lists the last 30 days of uploads in one answer.
    { name: 'exercises', recordTypes: ['workout'], maxWindowDays: 30 },
    // /v3/users/sleep lists the last 28 days in one answer.
    { name: 'sleep', recordTypes: ['sleep'], maxWindowDays: 28 },
    // from..to may span 28 days; one day of margin each side.
    { name: 'activities', recordTypes: ['summary'], maxWindowDays: ACTIVITY_WINDOW_DAYS },
    // One range request (from..to, 28 days) per window.
    { name: 'continuous_heart_rate', recordTypes: ['intraday'], maxWindowDays: 28 },
    // A transaction of whatever is new; the window does not filter it.
    { name: 'physical_info', recordTypes: ['measurement'], maxWindowDays: 28 },
  ],
  // Polar's authorization endpoint documents no PKCE parameters.
  pkce: definition.capabilities.pkce,
  // One scope: without it there is nothing to read.
  consentScopes: { data: [{ scope: 'accesslink.read_all' }] },

  authorizeUrl: (settings, params) => authorizeUrl(settings, params),
  exchangeCode: (http, settings, params, now) => exchangeCode(http, settings, params, now),
  refresh: () => refresh(),
  revoke,
  afterConnect,

  async fetchWindow(http, settings, accessToken, resource, window, ctx) {
    switch (resource) {
      case 'exercises':
        return fetchExercises(http, settings, accessToken, window);
      case 'sleep':
        return fetchSleep(http, settings, accessToken, window);
      case 'activities':
        return fetchActivities(http, settings, accessToken, window);
      case 'continuous_heart_rate':
        return fetchHeartRate(http, settings, accessToken, window, ctx);
      case 'physical_info':
        return fetchPhysicalInfo(http, settings, accessToken, window, ctx);
      default:
        throw new ProviderError('bad_request', `Polar has no resource ${resource} in this adapter`);
    }
  },

  parseNotification,
  appSubscriptions: { secretOnlyOnCreate: true, wanted, list, create: (http, settings, want) => create(http, settings, want), renew, remove },
};
