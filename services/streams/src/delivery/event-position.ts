/**
 * SSE ids encode the event's log position, `<partition>-<offset>`, so a client's `Last-Event-ID`
 * tells the server where in that partition it had got to.
 */
import { badRequest } from '@wellstream/errors';

export interface LogPosition {
  partition: number;
  offset: number;
}

export const encodePosition = (p: LogPosition) => `${p.partition}-${p.offset}`;

const POSITION = /^(\d{1,5})-(\d{1,15})$/;

/** Undefined when absent; 400 when present but not an id this service issued. */
export function parsePosition(value: string | undefined, field: string): LogPosition | undefined {
  if (value === undefined || value === '') return undefined;
  const m = POSITION.exec(value.trim());
  if (!m) throw badRequest('INVALID_LAST_EVENT_ID', { [field]: ['must be an event id received from this service, e.g. 3-1042'] });
  return { partition: Number(m[1]), offset: Number(m[2]) };
}

/** True when `p` is at or before the resume position (same partition only). */
export const alreadySeen = (resume: LogPosition | undefined, p: LogPosition) =>
  resume !== undefined && p.partition === resume.partition && p.offset <= resume.offset;

/** More than any log has partitions; bounds the work one header can ask for. */
export const MAX_RESUME_POSITIONS = 1024;

/**
 * A stream connection's resume point: one event id, or a comma-separated list of the last id of
 * each partition a client had read (a client that stopped for a while had events of several users
 * in hand; each partition is resumed after its own). The latest of a partition named twice counts.
 * Undefined when absent; 400 when malformed.
 */
export function parsePositions(value: string | undefined, field: string): LogPosition[] | undefined {
  if (value === undefined || value === '') return undefined;
  const parts = value.split(',');
  if (parts.length > MAX_RESUME_POSITIONS) throw badRequest('INVALID_LAST_EVENT_ID', { [field]: [`must name at most ${MAX_RESUME_POSITIONS} positions`] });
  const latest = new Map<number, LogPosition>();
  for (const part of parts) {
    const p = parsePosition(part, field);
    if (!p) throw badRequest('INVALID_LAST_EVENT_ID', { [field]: ['must be an event id received from this service, or a comma-separated list of them, e.g. 3-1042,7-88'] });
    if ((latest.get(p.partition)?.offset ?? -1) < p.offset) latest.set(p.partition, p);
  }
  return [...latest.values()];
}

/** True when `p` is at or before the resume position of its partition. */
export const alreadySeenIn = (resume: LogPosition[] | undefined, p: LogPosition) => resume !== undefined && resume.some((r) => alreadySeen(r, p));
