/**
 * The Google Health API provider adapter (v4, https://developers.google.com/health), the successor
 * of Fitbit's Web API for Fitbit and Pixel users: Google OAuth 2.0 with PKCE and offline access,
 * exercise, sleep, heart rate and weight data points read from each data type's raw stream, and
 * notify-only webhooks authenticated by the subscriber secret. The parts live in the
 * google-health-*.ts modules next to this one; README.md says what each call and field is and why.
 */
import { providerDefinition } from '@wellstream/providers';
import { unknownResource } from '../kit/adapter-wiring';
import { ProviderAdapter } from '../provider.port';
import { DAILY_SUMMARY_MAX_DAYS, fetchDailySummary } from './google-health-daily';
import { COLLECTIONS, fetchCollection } from './google-health-fetch';
import { fetchHeartRate } from './google-health-heartrate';
import { fetchDailyOxygenSaturation } from './google-health-vitals';
import { authorizeUrl, exchangeCode, fetchProviderUserId, GOOGLE_HEALTH_SCOPES, refresh, revoke } from './google-health-oauth';
import { handshake, parseNotification } from './google-health-webhooks';

/** Type, name, addresses, limits and capabilities: libs/providers/src/google_health.ts. */
const definition = providerDefinition('google_health');

export const googleHealthAdapter: ProviderAdapter = {
  type: definition.type,
  // Google documents no window limit for list; 30 days of sessions is at most a few pages of 25.
  // Heart rate is read a UTC day at a time because a day is its record (google-health-heartrate.ts).
  // Resources carry Google's filter-parameter names (snake_case): they are field names in the sync
  // state, where a hyphen is not allowed (FerretDB refuses `resources.heart-rate.…`).
  resources: [
    { name: 'exercise', recordTypes: ['workout'], maxWindowDays: 30 },
    { name: 'sleep', recordTypes: ['sleep'], maxWindowDays: 30 },
    { name: 'weight', recordTypes: ['measurement'], maxWindowDays: 30 },
    { name: 'heart_rate', recordTypes: ['intraday'], maxWindowDays: 1 },
    { name: 'body_fat', recordTypes: ['measurement'], maxWindowDays: 30 },
    // Google's per-local-day rollup; total-calories takes at most 14 days a request (google-health-daily.ts).
    { name: 'daily_summary', recordTypes: ['summary'], maxWindowDays: DAILY_SUMMARY_MAX_DAYS },
    // The day's SpO2, a Daily record listed by its date (google-health-vitals.ts).
    { name: 'daily_oxygen_saturation', recordTypes: ['measurement'], maxWindowDays: 30 },
  ],
  pkce: definition.capabilities.pkce,
  authorizeUrl,
  exchangeCode,
  refresh,
  revoke,
  fetchProviderUserId,
  // Google's consent screen lets the user untick scopes; the token answer's `scope` lists the granted ones.
  consentScopes: { data: GOOGLE_HEALTH_SCOPES.map((scope) => ({ scope })) },

  async fetchWindow(http, settings, accessToken, resource, window) {
    if (resource === 'heart_rate') return fetchHeartRate(http, settings, accessToken, window);
    if (resource === 'daily_summary') return fetchDailySummary(http, settings, accessToken, window);
    if (resource === 'daily_oxygen_saturation') return fetchDailyOxygenSaturation(http, settings, accessToken, window);
    if (Object.hasOwn(COLLECTIONS, resource)) return fetchCollection(http, settings, accessToken, resource, window);
    throw unknownResource('Google Health', resource);
  },

  handshake,
  parseNotification,
};
