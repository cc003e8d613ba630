/**
 * The Strava simulator's data routes: `GET /api/v3/athlete/activities` (before/after epoch seconds
 * on the start time, page/per_page pages with per_page ≤ 200, no total: the page after the last is
 * empty; "Only You" activities filtered out unless the token has activity:read_all),
 * `GET /api/v3/activities/{id}` (DetailedActivity, the owner's only) and `GET /api/v3/athlete`.
 * A token without activity:read/activity:read_all gets Strava's 401 naming the missing permission.
 */
import { fault, json, SimReply } from './strava-sim-auth';
import { detailed, StravaAccount, summary } from './strava-sim-data';

const intParam = (params: URLSearchParams, name: string): number | null | undefined => {
  const v = params.get(name);
  if (v === null) return undefined;
  return /^\d+$/.test(v) ? Number(v) : null;
};

export function dataRoute(a: StravaAccount, scope: string, path: string, params: URLSearchParams, maxPerPage = 200): SimReply | undefined {
  const scopes = scope.split(',');
  const canReadActivities = scopes.includes('activity:read') || scopes.includes('activity:read_all');
  const seesPrivate = scopes.includes('activity:read_all');
  if (path === '/api/v3/athlete') return json(200, { id: a.athleteId, resource_state: 2, firstname: a.firstname, lastname: 'Sim' });
  if (!canReadActivities && (path === '/api/v3/athlete/activities' || path.startsWith('/api/v3/activities/'))) {
    return fault(401, 'Authorization Error', [{ resource: 'AccessToken', field: 'activity:read_permission', code: 'missing' }]);
  }
  if (path === '/api/v3/athlete/activities') {
    const before = intParam(params, 'before');
    const after = intParam(params, 'after');
    const page = intParam(params, 'page') ?? 1;
    const perPage = intParam(params, 'per_page') ?? 30;
    if (before === null || after === null || page === null || perPage === null || page < 1) return fault(400, 'Bad Request', [{ resource: 'Activity', field: 'page', code: 'invalid' }]);
    const size = Math.min(Math.max(perPage, 1), maxPerPage);
    const matching = a.activities
      .filter((x) => (after === undefined || x.startMs > after * 1000) && (before === undefined || x.startMs < before * 1000) && (seesPrivate || !x.private))
      // Newest first; oldest first when paging forward from `after`.
      .sort((x, y) => (after !== undefined ? x.startMs - y.startMs : y.startMs - x.startMs));
    return json(200, matching.slice((page - 1) * size, page * size).map((x) => summary(a, x)));
  }
  const one = /^\/api\/v3\/activities\/(\d+)$/.exec(path);
  if (one) {
    const x = a.activities.find((y) => y.id === BigInt(one[1]) && (seesPrivate || !y.private));
    return x ? json(200, detailed(a, x)) : fault(404, 'Record Not Found', [{ resource: 'Activity', field: 'id', code: 'not found' }]);
  }
  return undefined;
}
