/**
 * One page of `GET /athlete/activities` over a UTC window ("List Athlete Activities").
 *
 * `after` and `before` are epoch seconds filtering on the activity's start; whether either bound
 * is inclusive is not documented, so each is widened by a second and the records are then kept only
 * when their start_time falls in [window.start, window.end): consecutive windows never lose an
 * activity and never return one twice. Pages are numbered (`page`, `per_page` ≤ 200) and Strava
 * gives no total; its guide says to "iterate until an empty response", so a short page is not
 * taken as the last (activities the token may not see are filtered out of pages): the cursor is the
 * next page number until a page comes back empty.
 */
import type { FetchResult, FetchWindow, ProviderHttp, ProviderSettings } from '../provider.port';
import { apiUrl, bearer, send } from './strava-http';
import { badResponse, parseJson, requireObject } from './strava-json';
import { mapActivity } from './strava-mapping';

export const PER_PAGE = 200;

export async function fetchActivities(http: ProviderHttp, settings: ProviderSettings, accessToken: string, window: FetchWindow): Promise<FetchResult> {
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
  const records = parsed
    .map((item, i) => mapActivity(requireObject(item, `activities[${i}]`)))
    .filter((r) => {
      const t = Date.parse(r.start_time);
      return t >= start && t < end;
    });
  return { records, nextCursor: String(page + 1) };
}
