/**
 * Strava activities: one page of `GET /athlete/activities` over a UTC window ("List Athlete
 * Activities"), and one activity by id (`GET /activities/{id}`, "Get Activity").
 *
 * The list answers SummaryActivity, which has no `calories`; only DetailedActivity has them
 * ("kilocalories consumed during this activity"). A detail costs one read request an activity
 * against Strava's 100 reads per 15 minutes and 1,000 a day for the whole application, so:
 * - a notification names one activity: that activity's detail is read (one request, as the list was);
 * - history (backfill) reads the list only: its workouts have no energy (README.md has the arithmetic);
 * - polls read the detail of each listed activity that started within DETAIL_RECENT_MS of the
 *   window's end, so a poll re-reading an activity a notification brought in full never replaces
 *   its energy with a summary that lacks it; older ones stay summaries.
 *
 * `after` and `before` are epoch seconds filtering on the activity's start; whether either bound
 * is inclusive is not documented, so each is widened by a second and the records are then kept only
 * when their start_time falls in [window.start, window.end): consecutive windows never lose an
 * activity and never return one twice. Pages are numbered (`page`, `per_page` ≤ 200) and Strava
 * gives no total; its guide says to "iterate until an empty response", so a short page is not
 * taken as the last (activities the token may not see are filtered out of pages): the cursor is the
 * next page number until a page comes back empty.
 */
import type { FetchContext, FetchResult, FetchWindow, IngestRecord, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, failureOf, send } from './strava-http';
import { badResponse, DAY_MS, parseJson, requireId, requireObject } from './strava-json';
import { mapActivity } from './strava-mapping';

export const PER_PAGE = 200;

/** Polls read the detail (with calories) of activities that started this close to the window's end. */
export const DETAIL_RECENT_MS = 2 * DAY_MS;

/** `GET /activities/{id}`: the DetailedActivity as a record; [] when Strava no longer shows it to this token (404). */
export async function fetchActivity(http: ProviderHttp, settings: ProviderSettings, accessToken: string, id: string): Promise<IngestRecord[]> {
  if (!/^\d{1,20}$/.test(id)) throw badResponse(`not an activity id: ${id.slice(0, 24)}`);
  const res = await http.send({ method: 'GET', url: apiUrl(settings, `/activities/${id}`), headers: bearer(accessToken) });
  // Deleted, or made "Only You" while we hold activity:read only: nothing to store (a delete event says the rest).
  if (res.status === 404) return [];
  const failure = failureOf(res, 'activity');
  if (failure) throw failure;
  return [mapActivity(requireObject(parseJson(res.body, 'activity', res.status), 'activity'))];
}

export async function fetchActivities(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow, ctx?: FetchContext): Promise<FetchResult> {
  const start = window.start.getTime();
  const end = window.end.getTime();
  const page = window.cursor === undefined ? 1 : Number(window.cursor);
  if (!Number.isSafeInteger(page) || page < 1) throw badResponse(`not a page cursor: ${String(window.cursor).slice(0, 20)}`);
  const url = apiUrl(settings, '/athlete/activities', {
    after: String(Math.floor(start / 1000) - 1),
    before: String(Math.ceil(end / 1000) + 1),
    page: String(page),
    per_page: String(PER_PAGE),
  });
  const res = await send(http, { method: 'GET', url, headers: bearer(accessToken) }, 'activities');
  const parsed = parseJson(res.body, 'activities', res.status);
  if (!Array.isArray(parsed)) throw badResponse('activities answer is not an array');
  if (parsed.length === 0) return { records: [] };
  const detailed = ctx?.purpose === 'poll' || ctx?.purpose === 'live';
  const records: IngestRecord[] = [];
  for (const [i, item] of parsed.entries()) {
    const summary = requireObject(item, `activities[${i}]`);
    const record = mapActivity(summary);
    const t = Date.parse(record.start_time);
    if (t < start || t >= end) continue;
    if (detailed && end - t <= DETAIL_RECENT_MS) records.push(...(await fetchActivity(http, settings, accessToken, requireId(summary, 'id', `activities[${i}]`))));
    else records.push(record);
  }
  return { records, nextCursor: String(page + 1) };
}
