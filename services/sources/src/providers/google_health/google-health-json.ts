/**
 * Reading the Google Health API's JSON defensively: the shared guards (kit/json-reading) plus what is
 * Google's own. Its answers follow the proto3 JSON mapping, so int64 fields (steps, beatsPerMinute,
 * minutesAsleep) arrive as decimal strings, Durations as `"3600s"`, Timestamps as RFC 3339 strings.
 * A wrong shape becomes ProviderError('bad_response'), never a TypeError inside a mapping.
 */
import { jsonReader, type Json } from '../kit/json-reading';

export { isObject, type Json } from '../kit/json-reading';
export { DAY_MS, startOfUtcDay, utcDay, utcTime } from '../kit/utc-time';

export const { badResponse, parseJson, requireObject, requireArray, requireString, optionalString, optionalObject } = jsonReader('Google Health');

/** `{ dataPoints: [...], nextPageToken }` (ListDataPointsResponse). An empty answer `{}` has no points. */
export function readDataPoints(body: string, what: string): { points: Json[]; nextPageToken?: string } {
  const root = requireObject(parseJson(body, what), what);
  const raw = root.dataPoints ?? [];
  const points = requireArray(raw, `${what}.dataPoints`).map((p, i) => requireObject(p, `${what}.dataPoints[${i}]`));
  const next = optionalString(root, 'nextPageToken', what);
  return next ? { points, nextPageToken: next } : { points };
}

/** A number, or an int64 as its decimal string; null/absent is undefined; anything else is bad_response. */
export function optionalNumber(o: Json, key: string, what: string): number | undefined {
  const v = o[key];
  if (v === null || v === undefined) return undefined;
  const n = typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw badResponse(`${what}.${key} is not a number`);
  return n;
}

/** A proto Duration (`"3600s"`, `"-18000s"`, `"1.5s"`) in seconds, undefined when absent. */
export function optionalDurationS(o: Json, key: string, what: string): number | undefined {
  const v = o[key];
  if (v === null || v === undefined) return undefined;
  if (typeof v !== 'string' || !/^-?\d+(\.\d+)?s$/.test(v)) throw badResponse(`${what}.${key} is not a duration`);
  return Number(v.slice(0, -1));
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Milliseconds since the epoch of a Timestamp field. */
export function requireInstant(o: Json, key: string, what: string): number {
  const v = requireString(o, key, what);
  const ms = RFC3339.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(ms)) throw badResponse(`${what}.${key} is not an RFC 3339 time`);
  return ms;
}

/** The last segment of a data point's `name` (`users/{user}/dataTypes/{type}/dataPoints/{id}`): its id. */
export function dataPointId(point: Json, what: string): string {
  const name = requireString(point, 'name', what);
  const m = /^users\/[^/]+\/dataTypes\/[^/]+\/dataPoints\/([^/]+)$/.exec(name);
  if (!m) throw badResponse(`${what}.name is not a data point name`);
  return m[1];
}

/** An ObservationTimeInterval: start and end instants and the offsets in force (seconds). */
export function readInterval(o: Json, what: string): { startMs: number; endMs: number; startOffsetS?: number } {
  const interval = requireObject(o.interval, `${what}.interval`);
  const startMs = requireInstant(interval, 'startTime', `${what}.interval`);
  const endMs = requireInstant(interval, 'endTime', `${what}.interval`);
  if (endMs < startMs) throw badResponse(`${what} ends before it starts`);
  const startOffsetS = optionalDurationS(interval, 'startUtcOffset', `${what}.interval`);
  return { startMs, endMs, ...(startOffsetS === undefined ? {} : { startOffsetS }) };
}

/** An ObservationSampleTime: the instant and the offset in force (seconds). */
export function readSampleTime(o: Json, what: string): { atMs: number; offsetS?: number } {
  const t = requireObject(o.sampleTime, `${what}.sampleTime`);
  const atMs = requireInstant(t, 'physicalTime', `${what}.sampleTime`);
  const offsetS = optionalDurationS(t, 'utcOffset', `${what}.sampleTime`);
  return { atMs, ...(offsetS === undefined ? {} : { offsetS }) };
}
