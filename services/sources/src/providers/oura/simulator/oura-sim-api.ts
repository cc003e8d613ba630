/**
 * The Oura simulator's answers and its data routes: `/v2/usercollection/{daily_activity,sleep,
 * workout}` filtered by `day` with `start_date`/`end_date`, `/heartrate` with `start_datetime`/
 * `end_datetime`, `/personal_info`, each paginated with an opaque `next_token` as Oura documents
 * (`{data: [...], next_token}`, null on the last page).
 */
import type { Doc, HeartRow, OuraAccount } from './oura-sim-data';

import type { SimReply } from '../../../../test/simulators/kit/sim-server';

export type { SimReply };

export const json = (status: number, value: unknown, headers: Record<string, string> = {}): SimReply => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

/** Oura's error body (RFC 7807 fields `status`, `title`, `detail`). */
export const problem = (status: number, title: string, detail?: string, headers: Record<string, string> = {}): SimReply =>
  json(status, { status, title, ...(detail ? { detail } : {}) }, headers);

/** An opaque token naming the next offset of exactly this query; another query's token is refused. */
const tokenFor = (query: string, offset: number) => Buffer.from(JSON.stringify({ q: query, o: offset })).toString('base64url');

function pageOf<T>(items: T[], params: URLSearchParams, pageSize: number, render: (t: T) => unknown): SimReply {
  const q = new URLSearchParams(params);
  q.delete('next_token');
  q.sort();
  const query = q.toString();
  let offset = 0;
  const token = params.get('next_token');
  if (token) {
    try {
      const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { q?: unknown; o?: unknown };
      if (parsed.q !== query || typeof parsed.o !== 'number') throw new Error('other query');
      offset = parsed.o;
    } catch {
      return problem(400, 'Invalid next_token');
    }
  }
  const page = items.slice(offset, offset + pageSize);
  const next = offset + pageSize < items.length ? tokenFor(query, offset + pageSize) : null;
  return json(200, { data: page.map(render), next_token: next });
}

/** A query date: `YYYY-MM-DD`, or a date-time whose date part is used (the schema allows both). */
function dayParam(params: URLSearchParams, name: string): string | null | undefined {
  const v = params.get(name);
  if (v === null) return undefined;
  const day = v.slice(0, 10);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`)) ? day : null;
}

const today = () => new Date().toISOString().slice(0, 10);
const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * Documents whose `day` is in [start_date, end_date], both inclusive (Oura's schema does not say;
 * the simulator takes the inclusive reading). Missing dates default to the day before end_date and
 * today.
 */
export function queryDocuments(docs: Doc[], params: URLSearchParams, pageSize: number): SimReply {
  const end = dayParam(params, 'end_date');
  const start = dayParam(params, 'start_date');
  if (end === null || start === null) return json(422, { detail: [{ loc: ['query', end === null ? 'end_date' : 'start_date'], msg: 'invalid date', type: 'value_error' }] });
  const to = end ?? today();
  const from = start ?? dayBefore(to);
  if (from > to) return problem(400, 'Start date is after end date');
  const matching = docs.filter((d) => String(d.day) >= from && String(d.day) <= to).sort((a, b) => String(a.day).localeCompare(String(b.day)));
  return pageOf(matching, params, pageSize, (d) => d);
}

function dateTimeParam(params: URLSearchParams, name: string): number | null | undefined {
  const v = params.get(name);
  if (v === null) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(v) ? Date.parse(v) : NaN;
  return Number.isNaN(ms) ? null : ms;
}

/** Rows with start_datetime ≤ timestamp ≤ end_datetime (inclusive both ends, again the simulator's reading). */
export function queryHeartrate(rows: HeartRow[], params: URLSearchParams, pageSize: number): SimReply {
  const start = dateTimeParam(params, 'start_datetime');
  const end = dateTimeParam(params, 'end_datetime');
  if (start === null || end === null) return json(422, { detail: [{ loc: ['query', start === null ? 'start_datetime' : 'end_datetime'], msg: 'invalid datetime', type: 'value_error' }] });
  const to = end ?? Date.now();
  const from = start ?? to - 86_400_000;
  const matching = rows.filter((r) => r.at >= from && r.at <= to).sort((a, b) => a.at - b.at);
  return pageOf(matching, params, pageSize, (r) => ({
    timestamp: new Date(r.at).toISOString().replace('Z', '+00:00'),
    timestamp_unix: r.at,
    bpm: r.bpm,
    source: r.source,
  }));
}

export interface DataPageSizes {
  documents: number;
  heartrate: number;
}

/** The usercollection route for an authenticated account, or undefined when the path is not one. */
export function dataRoute(account: OuraAccount, path: string, params: URLSearchParams, sizes: DataPageSizes): SimReply | undefined {
  switch (path) {
    case '/v2/usercollection/personal_info':
      return json(200, { id: account.providerUserId, age: 34, weight: 71.5, height: 1.78, biological_sex: 'female', email: null });
    case '/v2/usercollection/daily_activity':
      return queryDocuments(account.activity, params, sizes.documents);
    case '/v2/usercollection/sleep':
      return queryDocuments(account.sleeps, params, sizes.documents);
    case '/v2/usercollection/workout':
      return queryDocuments(account.workouts, params, sizes.documents);
    case '/v2/usercollection/heartrate':
      return queryHeartrate(account.heartrate, params, sizes.heartrate);
    default:
      return undefined;
  }
}
