/**
 * The Dexcom (API v3) provider adapter: OAuth with rotating refresh tokens, EGVs as hourly `cgm`
 * series and calibrations as `measurement`s. Dexcom sends no notifications (polling only), so
 * there is no handshake, parseNotification or subscription here; it documents no revoke endpoint,
 * so there is no revoke either. README.md next to this file holds the documents and choices.
 */
import { providerDefinition } from '@wellstream/providers';
import { ProviderAdapter, ProviderError } from '../provider.port';
import { fetchCalibrations } from './dexcom-calibrations';
import { fetchEgvs } from './dexcom-egvs';
import { authorizeUrl, exchangeCode, refresh } from './dexcom-oauth';
import { getJson } from './dexcom-http';

/** Type, name, addresses, limits and capabilities: libs/providers/src/dexcom.ts. */
const definition = providerDefinition('dexcom');

export const dexcomAdapter: ProviderAdapter = {
  type: definition.type,
  // 30 days: the longest startDate→endDate span Dexcom v3 accepts. A window of up to 30 days stays
  // within it once egvs widen it to whole hours (both ends move up, by less than an hour each); a
  // longer one is split with nextCursor rather than refused by Dexcom.
  resources: [
    { name: 'egvs', recordTypes: ['cgm'], maxWindowDays: 30 },
    { name: 'calibrations', recordTypes: ['measurement'], maxWindowDays: 30 },
  ],
  pkce: definition.capabilities.pkce, // Dexcom's authentication page documents no code_challenge

  authorizeUrl: (settings, params) => authorizeUrl(settings, params),
  exchangeCode: (http, settings, params, now) => exchangeCode(http, settings, params.code, now),
  refresh: (http, settings, tokens, now) => refresh(http, settings, tokens, now),

  /** Dexcom's userId (per account and per client app) from /dataRange, its cheapest answer carrying it. */
  async fetchProviderUserId(http, settings, accessToken) {
    const body = await getJson(http, settings, accessToken, '/v3/users/self/dataRange');
    if (typeof body.userId !== 'string' || body.userId === '') throw new ProviderError('bad_response', 'Dexcom dataRange: no userId');
    return body.userId;
  },

  async fetchWindow(http, settings, accessToken, resource, window) {
    if (resource === 'egvs') return fetchEgvs(http, settings, accessToken, window);
    if (resource === 'calibrations') return fetchCalibrations(http, settings, accessToken, window);
    throw new ProviderError('bad_request', `Dexcom has no resource ${resource}`);
  },
};
