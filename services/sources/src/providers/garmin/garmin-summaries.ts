/**
 * The summary types we read, how a pull is made and read, and the backfill request.
 *
 * - **Pull** (Health API "Ping Service"): a ping names, per summary type and user, a `callbackURL`
 *   (`/wellness-api/rest/<type>?uploadStartTimeInSeconds=…&uploadEndTimeInSeconds=…&token=…`);
 *   we GET exactly that URL with the user's bearer token once it passed `checkedCallbackUrl`, and
 *   Garmin answers a JSON array of summaries.
 * - **Backfill** ("Backfill"): `GET /wellness-api/rest/backfill/<type>?summaryStartTimeInSeconds=…
 *   &summaryEndTimeInSeconds=…` answers 202 at once and the history arrives later as pings like
 *   any other data; a range asked for already answers 409, which is success for us (the data is on
 *   its way). Garmin forbids pulling without a ping in production, so a poll reads nothing.
 */
import type { FetchContext, FetchResult, FetchWindow, IngestRecord, ProviderHttp, ProviderSettings, ResourceSpec } from '../provider.port';
import { ProviderError } from '../provider.port';
import { mapDaily, mapDailyHeartRate, mapEpoch } from './garmin-daily-mapping';
import { mapActivity, mapBodyComp, mapPulseOx } from './garmin-health-mapping';
import { apiUrl, bearer, checkedCallbackUrl, failureOf, REST_PATH, send } from './garmin-http';
import { Json, parseJson, requireArray, requireObject } from './garmin-json';
import { mapSleep } from './garmin-sleep-mapping';

interface Summary {
  spec: ResourceSpec;
  map: (o: Json) => (IngestRecord | undefined)[];
}

/**
 * One day of one summary type per backfill request: Garmin's backfill limit counts days
 * (evaluation keys 100 a minute), so a request is one unit of the budget. The documented maximum
 * range of one request (90 days; activities 30) is far above it.
 */
const DAY = 1;

/** Activities come with ACTIVITY_EXPORT, every other summary type with HEALTH_EXPORT (garmin-permissions.ts). */
const summary = (name: string, recordTypes: ResourceSpec['recordTypes'], map: Summary['map']): [string, Summary] => [
  name,
  { spec: { name, recordTypes, maxWindowDays: DAY, permission: name === 'activities' ? 'ACTIVITY_EXPORT' : 'HEALTH_EXPORT' }, map },
];

export const SUMMARIES = new Map<string, Summary>([
  summary('dailies', ['summary', 'intraday'], (o) => [mapDaily(o), mapDailyHeartRate(o)]),
  summary('epochs', ['intraday'], (o) => [mapEpoch(o)]),
  summary('sleeps', ['sleep'], (o) => [mapSleep(o)]),
  summary('activities', ['workout'], (o) => [mapActivity(o)]),
  summary('bodyComps', ['measurement'], (o) => [mapBodyComp(o)]),
  summary('pulseox', ['intraday'], (o) => [mapPulseOx(o)]),
]);

const MAX_SUMMARIES = 20_000;

function known(resource: string): Summary {
  const s = SUMMARIES.get(resource);
  if (!s) throw new ProviderError('bad_request', `Garmin has no resource ${resource} in this adapter`);
  return s;
}

/** A pull's answer (a JSON array of summaries) mapped to records. */
export function readPull(resource: string, body: string, status: number): IngestRecord[] {
  const s = known(resource);
  const list = requireArray(parseJson(body, resource, status), resource);
  if (list.length > MAX_SUMMARIES) throw new ProviderError('bad_response', `Garmin: ${resource} answered more than ${MAX_SUMMARIES} summaries`);
  return list.flatMap((o, i) => s.map(requireObject(o, `${resource}[${i}]`))).filter((r): r is IngestRecord => r !== undefined);
}

/** The pull a ping named (`objectId` is its callbackURL), checked again before the token goes out. */
export async function pull(http: ProviderHttp, settings: ProviderSettings, accessToken: string, resource: string, callbackUrl: string): Promise<IngestRecord[]> {
  known(resource);
  const url = checkedCallbackUrl(settings, resource, callbackUrl);
  const res = await send(http, { method: 'GET', url: url.toString(), headers: bearer(accessToken) }, `${resource} pull`);
  if (res.status === 204 || res.body.trim() === '') return [];
  return readPull(resource, res.body, res.status);
}

/** History: the backfill request for the window (records come later, by ping); polls read nothing. */
export async function backfill(http: ProviderHttp, settings: ProviderSettings, accessToken: string, resource: string, window: FetchWindow, ctx: FetchContext): Promise<FetchResult> {
  known(resource);
  if (ctx.purpose === 'poll' || ctx.purpose === 'live') return { records: [] };
  const start = Math.floor(window.start.getTime() / 1000);
  const end = Math.ceil(window.end.getTime() / 1000);
  if (end <= start) return { records: [] };
  const query = { summaryStartTimeInSeconds: String(start), summaryEndTimeInSeconds: String(end) };
  const res = await http.send({ method: 'GET', url: apiUrl(settings, `${REST_PATH}/backfill/${resource}`, query), headers: bearer(accessToken) });
  if (res.status === 409) return { records: [] };
  const failure = failureOf(res, `${resource} backfill`);
  if (failure) throw failure;
  return { records: [] };
}
