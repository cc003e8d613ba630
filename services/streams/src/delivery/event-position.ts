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
