/**
 * The Withings provider adapter (ProviderAdapter `withings`), assembled from the modules beside it:
 * OAuth and its non-standard token call (withings-oauth), the status-in-200 error mapping
 * (withings-status), one module per data service (measures, activity + workouts, sleep,
 * intraday) and per-user notify subscriptions (withings-webhooks). See README.md for the documents
 * it follows and the readings chosen where they are silent.
 */
import { providerDefinition } from '@wellstream/providers';
import { FetchResult, FetchWindow, ProviderAdapter, ProviderError, ProviderHttp, ProviderSettings, ResourceSpec } from '../provider.port';
import { fetchActivity, fetchWorkouts } from './withings-activity';
import { fetchIntraday } from './withings-intraday';
import { fetchMeasures } from './withings-measures';
import { handshake, parseNotification, subscribe, unsubscribe } from './withings-webhooks';
import { authorizeUrl, exchangeCode, refresh, revoke } from './withings-oauth';
import { fetchSleepSummaries } from './withings-sleep';

type Fetcher = (http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow) => Promise<FetchResult>;

/**
 * Window sizes: Withings documents no limit for getmeas/getactivity/getworkouts (31 days keeps
 * pages few), 7 days for a sleep call ("A single call can span up to 7 days maximum"), and 24 h
 * for getintradayactivity ("only the first 24h after startdate will be returned").
 */
const RESOURCES: (ResourceSpec & { fetch: Fetcher })[] = [
  { name: 'getmeas', recordTypes: ['measurement'], maxWindowDays: 31, fetch: fetchMeasures },
  { name: 'getactivity', recordTypes: ['summary'], maxWindowDays: 31, fetch: fetchActivity },
  { name: 'getworkouts', recordTypes: ['workout'], maxWindowDays: 31, fetch: fetchWorkouts },
  { name: 'getsummary', recordTypes: ['sleep'], maxWindowDays: 7, fetch: fetchSleepSummaries },
  { name: 'getintradayactivity', recordTypes: ['intraday'], maxWindowDays: 1, fetch: fetchIntraday },
];

/** Type, name, addresses, limits and capabilities: libs/providers/src/withings.ts. */
const definition = providerDefinition('withings');

export const withingsAdapter: ProviderAdapter = {
  type: definition.type,
  resources: RESOURCES.map(({ name, recordTypes, maxWindowDays }) => ({ name, recordTypes, maxWindowDays })),
  pkce: definition.capabilities.pkce,
  // The token answer's `scope` says what was granted; user.info brings no data we read.
  consentScopes: { data: [{ scope: 'user.metrics' }, { scope: 'user.activity' }] },
  authorizeUrl: (settings, params) => authorizeUrl(settings, params),
  exchangeCode: (http, settings, params, now) => exchangeCode(http, settings, params, now),
  refresh,
  revoke,
  async fetchWindow(http, settings, accessToken, resource, window) {
    const spec = RESOURCES.find((r) => r.name === resource);
    if (!spec) throw new ProviderError('bad_request', `withings has no resource ${resource}`);
    return spec.fetch(http, settings, accessToken, window);
  },
  handshake,
  parseNotification,
  userSubscriptions: { subscribe, unsubscribe },
};
