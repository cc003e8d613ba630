/**
 * Physical info, AccessLink's one remaining transactional resource: `POST
 * /v3/users/{user-id}/physical-information-transactions` opens a transaction (201 with its id, 204
 * when nothing is new), `GET …/{transaction-id}` lists links to the entries, each entry is read, and
 * `PUT …/{transaction-id}` commits ("Transaction has been committed and data deleted").
 *
 * What a transaction holds is new since the last commit, whatever its dates, so every entry is
 * returned whatever the window. The commit is the next page (cursor `commit:<id>`): it runs only
 * after every entry was read and mapped, so an unreadable entry leaves the transaction open and the
 * data at Polar for the next try. Entry links are followed by their path under our API URL, never to
 * another host with the user's token.
 */
import { FetchContext, FetchResult, FetchWindow, IngestRecord, ProviderError, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, send } from './polar-http';
import { badResponse, Json, optionalNumber, optionalString, parseJson, requireArray, requireId, requireObject, requireString } from './polar-json';
import { metric, Origin, SOURCE } from './polar-records';
import { instantUtcUnlessOffset, utcTime } from './polar-time';

const MAX_ENTRIES = 200;

export async function fetchPhysicalInfo(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow, ctx: FetchContext): Promise<FetchResult> {
  const userId = ctx.providerUserId;
  if (!userId) throw new ProviderError('bad_request', 'Polar physical info needs the Polar user id (x_user_id)');
  const base = `/v3/users/${encodeURIComponent(userId)}/physical-information-transactions`;
  const commit = /^commit:(\d+)$/.exec(window.cursor ?? '');
  if (commit) {
    await send(http, { method: 'PUT', url: apiUrl(settings, `${base}/${commit[1]}`), headers: bearer(accessToken) }, 'physical info commit');
    return { records: [] };
  }
  const created = await send(http, { method: 'POST', url: apiUrl(settings, base), headers: bearer(accessToken) }, 'physical info transaction');
  if (created.status === 204) return { records: [] };
  const tx = requireId(requireObject(parseJson(created.body, 'physical info transaction', created.status), 'physical info transaction'), 'transaction-id', 'physical info transaction');
  if (!/^\d+$/.test(tx)) throw badResponse('physical info transaction-id is not an integer');
  const listed = await send(http, { method: 'GET', url: apiUrl(settings, `${base}/${tx}`), headers: bearer(accessToken) }, 'physical info list');
  const links = listed.status === 204 ? [] : requireArray(requireObject(parseJson(listed.body, 'physical info list', listed.status), 'physical info list')['physical-informations'] ?? [], 'physical-informations');
  if (links.length > MAX_ENTRIES) throw badResponse(`physical info transaction lists more than ${MAX_ENTRIES} entries`);
  const records: IngestRecord[] = [];
  for (const link of links) {
    const path = entryPath(link, userId, tx);
    const res = await send(http, { method: 'GET', url: apiUrl(settings, path), headers: bearer(accessToken) }, 'physical info');
    if (res.status === 204) continue;
    const record = mapPhysicalInfo(requireObject(parseJson(res.body, 'physical info', res.status), 'physical info'));
    if (record) records.push(record);
  }
  return { records, nextCursor: `commit:${tx}` };
}

/** The documented entry path of a link Polar listed, checked against this user and transaction. */
export function entryPath(link: unknown, userId: string, tx: string): string {
  if (typeof link !== 'string') throw badResponse('physical info link is not a string');
  let path: string;
  try {
    path = new URL(link).pathname;
  } catch {
    throw badResponse('physical info link is not a URL');
  }
  const m = /^\/v3\/users\/([^/]+)\/physical-information-transactions\/(\d+)\/physical-informations\/(\d+)$/.exec(path);
  if (!m || decodeURIComponent(m[1]) !== userId || m[2] !== tx) throw badResponse('physical info link is not an entry of this transaction');
  return path;
}

/**
 * physical-information → `measurement` at `created`: weight (kg) and height (cm), the units of
 * Polar's own examples (weight 66–80, height 170–180). `weight-source` SOURCE_MEASURED is a device
 * reading, SOURCE_USER typed in; height's source is not given. Not mapped, no catalog metric (or not
 * a measurement): maximum and resting heart-rate settings, aerobic/anaerobic thresholds, VO2 max.
 * An entry with neither weight nor height yields no record.
 */
export function mapPhysicalInfo(p: Json): IngestRecord | undefined {
  const what = 'physical info';
  const id = requireId(p, 'id', what);
  const at = instantUtcUnlessOffset(requireString(p, 'created', what), `${what}.created`);
  const source = optionalString(p, 'weight-source', what);
  const weightOrigin: Origin = source === 'SOURCE_MEASURED' ? 'device' : source === 'SOURCE_USER' ? 'manual' : 'unknown';
  const positive = (v: number | undefined) => (v !== undefined && v > 0 ? v : undefined);
  const metrics = [
    ...metric('body_weight', 'kg', positive(optionalNumber(p, 'weight', what)), weightOrigin),
    ...metric('height', 'cm', positive(optionalNumber(p, 'height', what)), 'unknown'),
  ];
  if (metrics.length === 0) return undefined;
  return { type: 'measurement', source: SOURCE, log_id: `physical_info:${id}`, start_time: utcTime(at), end_time: utcTime(at), metrics };
}
