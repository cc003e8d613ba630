/**
 * The WHOOP simulator's v2 data routes, after WHOOP's OpenAPI document: the collections
 * (`/v2/cycle`, `/v2/recovery`, `/v2/activity/sleep`, `/v2/activity/workout`) with `limit` (≤ 25,
 * default 10), `start` (inclusive: objects that occurred after or during it), `end` (exclusive:
 * objects that intersect it or ended before; default now) and an opaque `nextToken`, sorted by
 * start time descending and answered `{records, next_token}`; the single objects; the user routes.
 */
import type { WhoopAccount, Obj } from './whoop-sim-data';

import type { SimReply } from '../../../../test/simulators/kit/sim-server';

export type { SimReply };

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): SimReply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

/** WHOOP documents the statuses, not their bodies: a small JSON error. */
export const failure = (status: number, message: string, headers: Record<string, string> = {}): SimReply => json(status, { error: message }, headers);

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Scopes each route needs (the OpenAPI `security` of each operation). */
export function scopeFor(path: string): string | undefined {
  if (path.startsWith('/v2/cycle/') && path.endsWith('/recovery')) return 'read:recovery';
  if (path.startsWith('/v2/cycle/') && path.endsWith('/sleep')) return 'read:sleep';
  if (path.startsWith('/v2/cycle')) return 'read:cycles';
  if (path.startsWith('/v2/recovery')) return 'read:recovery';
  if (path.startsWith('/v2/activity/sleep')) return 'read:sleep';
  if (path.startsWith('/v2/activity/workout')) return 'read:workout';
  if (path === '/v2/user/measurement/body') return 'read:body_measurement';
  if (path === '/v2/user/profile/basic') return 'read:profile';
  return undefined;
}

/** One page of a collection, with the time span each object is filtered by. */
function collection(items: Obj[], span: (o: Obj) => { start: number; end: number }, params: URLSearchParams, now: number): SimReply {
  const limitText = params.get('limit');
  const limit = limitText === null ? 10 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 25) return failure(400, 'limit must be an integer between 1 and 25');
  for (const p of ['start', 'end']) {
    const v = params.get(p);
    if (v !== null && (!DATE_TIME.test(v) || Number.isNaN(Date.parse(v)))) return failure(400, `${p} must be a date-time`);
  }
  const from = params.has('start') ? Date.parse(params.get('start')!) : -Infinity;
  const to = params.has('end') ? Date.parse(params.get('end')!) : now;
  const token = params.get('nextToken');
  let offset = 0;
  if (token !== null) {
    const decoded = /^o:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
    if (!decoded) return failure(400, 'nextToken is not valid');
    offset = Number(decoded[1]);
  }
  const matching = items
    .map((o) => ({ o, s: span(o) }))
    .filter(({ s }) => s.end >= from && s.start < to)
    .sort((x, y) => y.s.start - x.s.start)
    .map(({ o }) => o);
  const records = matching.slice(offset, offset + limit);
  const more = offset + limit < matching.length;
  return json(200, { records, ...(more ? { next_token: Buffer.from(`o:${offset + limit}`).toString('base64url') } : {}) });
}

const spanOf = (now: number) => (o: Obj) => ({ start: Date.parse(String(o.start)), end: o.end === undefined ? now : Date.parse(String(o.end)) });

/** The route for an authenticated account, or undefined when the path is none of WHOOP's. */
export function dataRoute(a: WhoopAccount, method: string, path: string, params: URLSearchParams, now: number): SimReply | undefined {
  if (method !== 'GET') return undefined;
  const span = spanOf(now);
  const notFound = failure(404, 'No resource found');
  if (path === '/v2/cycle') return collection(a.cycles, span, params, now);
  if (path === '/v2/activity/sleep') return collection(a.sleeps, span, params, now);
  if (path === '/v2/activity/workout') return collection(a.workouts, span, params, now);
  if (path === '/v2/recovery') {
    // WHOOP sorts recoveries by "start time of the related sleep"; the simulator filters them by that sleep's span too.
    const sleeps = new Map(a.sleeps.map((s) => [s.id, s]));
    return collection(a.recoveries.filter((r) => sleeps.has(r.sleep_id)), (r) => span(sleeps.get(r.sleep_id)!), params, now);
  }
  if (path === '/v2/user/measurement/body') return a.body ? json(200, a.body) : failure(404, 'Requested resource not found');
  if (path === '/v2/user/profile/basic') return json(200, a.profile);
  const cycle = /^\/v2\/cycle\/([^/]+)(\/sleep|\/recovery)?$/.exec(path);
  if (cycle) {
    const id = Number(cycle[1]);
    if (!Number.isSafeInteger(id)) return failure(400, 'cycleId must be an integer');
    const c = a.cycles.find((x) => x.id === id);
    if (!c) return notFound;
    if (!cycle[2]) return json(200, c);
    const found = cycle[2] === '/sleep' ? a.sleeps.find((s) => s.cycle_id === id && s.nap === false) : a.recoveries.find((r) => r.cycle_id === id);
    return found ? json(200, found) : notFound;
  }
  const one = /^\/v2\/activity\/(sleep|workout)\/([^/]+)$/.exec(path);
  if (one) {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(one[2])) return failure(400, 'id must be a UUID');
    const found = (one[1] === 'sleep' ? a.sleeps : a.workouts).find((o) => o.id === one[2]);
    return found ? json(200, found) : notFound;
  }
  return undefined;
}
