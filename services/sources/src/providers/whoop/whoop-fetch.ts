/**
 * One page of a WHOOP v2 resource over a UTC window.
 *
 * WHOOP's collections take `start` (objects that "occurred after or during", inclusive), `end`
 * (objects that "intersect this time or ended before", exclusive), `limit` ≤ 25 and `nextToken`,
 * and answer `{records, next_token}`. An object spanning a window edge is returned for both
 * windows, so records are kept only when their start_time falls in [window.start, window.end):
 * consecutive windows never lose an object and never return one twice.
 */
import type { FetchResult, FetchWindow, IngestRecord, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, check, send } from './whoop-http';
import { DAY_MS, Json, parseJson, readCollection, requireId, requireObject } from './whoop-json';
import { CycleSpan, cycleSpan, mapBodyMeasurement, mapCycle, mapRecovery, mapSleep, mapWorkout } from './whoop-mapping';

/** WHOOP's documented maximum page size. */
export const PAGE_LIMIT = 25;

type Ctx = { http: ProviderHttp; settings: ProviderSettings; accessToken: string };

async function page(ctx: Ctx, path: string, what: string, start: number, end: number, cursor?: string) {
  const url = apiUrl(ctx.settings, path, {
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    limit: String(PAGE_LIMIT),
    nextToken: cursor,
  });
  const res = await send(ctx.http, { method: 'GET', url, headers: bearer(ctx.accessToken) }, what);
  return readCollection(res.body, what, res.status);
}

const inWindow = (r: IngestRecord, window: FetchWindow) => {
  const t = Date.parse(r.start_time);
  return t >= window.start.getTime() && t < window.end.getTime();
};

const done = (records: IngestRecord[], nextToken?: string): FetchResult => (nextToken ? { records, nextCursor: nextToken } : { records });

/** An open cycle (the one the user is in) runs to the end of the window asked for, never past now. */
const openEnd = (window: FetchWindow) => Math.min(window.end.getTime(), Date.now());

export const COLLECTIONS: Record<string, { path: string; map: (o: Json, window: FetchWindow) => IngestRecord }> = {
  cycle: { path: '/v2/cycle', map: (o, w) => mapCycle(o, openEnd(w)) },
  sleep: { path: '/v2/activity/sleep', map: (o) => mapSleep(o) },
  workout: { path: '/v2/activity/workout', map: (o) => mapWorkout(o) },
};

export async function fetchCollection(ctx: Ctx, resource: string, window: FetchWindow): Promise<FetchResult> {
  const { path, map } = COLLECTIONS[resource];
  const { records, nextToken } = await page(ctx, path, resource, window.start.getTime(), window.end.getTime(), window.cursor);
  return done(records.map((o) => map(o, window)).filter((r) => inWindow(r, window)), nextToken);
}

/** Most cycle pages read to find the cycles of one recovery page before asking for them one by one. */
const MAX_CYCLE_PAGES = 4;

/**
 * Recoveries carry no time of their own, only `cycle_id` and `sleep_id`; each becomes a summary over
 * its cycle. WHOOP does not say which time its recovery `start`/`end` filters test (the cycle's or
 * the sleep's), so both the recovery and the cycle queries reach a day past each side of the window;
 * records are then kept by their cycle's start. Cycles not found that way are read one by one
 * (`GET /v2/cycle/{cycleId}`); a recovery whose cycle WHOOP no longer has (404) is left out.
 */
export async function fetchRecoveries(ctx: Ctx, window: FetchWindow): Promise<FetchResult> {
  const from = window.start.getTime() - DAY_MS;
  const to = window.end.getTime() + DAY_MS;
  const { records, nextToken } = await page(ctx, '/v2/recovery', 'recovery', from, to, window.cursor);
  if (records.length === 0) return done([], nextToken);
  const wanted = new Set(records.map((r) => requireId(r, 'cycle_id', 'recovery')));
  const spans = new Map<string, CycleSpan>();
  const end = openEnd(window);
  let cursor: string | undefined;
  for (let i = 0; i < MAX_CYCLE_PAGES; i++) {
    const cycles = await page(ctx, '/v2/cycle', 'cycle', from, to, cursor);
    for (const c of cycles.records) {
      const id = requireId(c, 'id', 'cycle');
      if (wanted.has(id)) spans.set(id, cycleSpan(c, end));
    }
    cursor = cycles.nextToken;
    if (!cursor || [...wanted].every((id) => spans.has(id))) break;
  }
  for (const id of wanted) {
    if (spans.has(id)) continue;
    const res = await ctx.http.send({ method: 'GET', url: apiUrl(ctx.settings, `/v2/cycle/${encodeURIComponent(id)}`), headers: bearer(ctx.accessToken) });
    if (res.status === 404) continue;
    const checked = check(res, 'cycle');
    spans.set(id, cycleSpan(requireObject(parseJson(checked.body, 'cycle', checked.status), 'cycle'), end));
  }
  const out: IngestRecord[] = [];
  for (const r of records) {
    const span = spans.get(requireId(r, 'cycle_id', 'recovery'));
    if (!span) continue;
    const record = mapRecovery(r, span);
    if (inWindow(record, window)) out.push(record);
  }
  return done(out, nextToken);
}

/** How long before now a window may end and still count as reaching now (a poll's end is the job's start). */
const NOW_TOLERANCE_MS = 15 * 60_000;

/**
 * `GET /v2/user/measurement/body`: the user's current height and weight, with no history and no
 * time. Only a window that reaches now gets it, as one measurement at now (at most the window's
 * last second); past windows (a backfill) get nothing. A 404 ("requested resource not found") is
 * a user without body measurements: no record.
 */
export async function fetchBodyMeasurement(ctx: Ctx, window: FetchWindow): Promise<FetchResult> {
  const now = Date.now();
  const start = window.start.getTime();
  const end = window.end.getTime();
  if (now < start || now >= end + NOW_TOLERANCE_MS) return { records: [] };
  const url = apiUrl(ctx.settings, '/v2/user/measurement/body');
  const res = await ctx.http.send({ method: 'GET', url, headers: bearer(ctx.accessToken) });
  if (res.status === 404) return { records: [] };
  const ok = check(res, 'body measurement');
  const body = requireObject(parseJson(ok.body, 'body measurement', ok.status), 'body measurement');
  const at = Math.max(start, Math.min(now, end - 1000));
  const record = mapBodyMeasurement(body, at);
  return { records: record ? [record] : [] };
}
