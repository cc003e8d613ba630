/**
 * Query of GET /replay. Every problem is a 400 with the offending parameter as the key, answered
 * before the event stream opens.
 */
import { EVENT_TYPES, EventType, RESOURCE_TYPES, ResourceType } from '@wellstream/catalog';
import { badRequest, FieldErrors } from '@wellstream/errors';
import { parsePosition, LogPosition } from '../event-position';
import { utcDayStart } from '../event-filter';

export interface ReplayQuery {
  createdFromMs?: number;
  resources: ResourceType[];
  eventTypes: EventType[];
  resumeAfter?: LogPosition;
}

function list<T extends string>(raw: unknown, allowed: readonly T[], field: string, errors: FieldErrors): T[] {
  if (raw === undefined) return [];
  if (typeof raw !== 'string') {
    errors[field] = ['must be given once, as one value or a comma-separated list'];
    return [];
  }
  const items = raw.split(',').map((s) => s.trim());
  const bad = items.filter((i) => !allowed.includes(i as T));
  if (bad.length > 0) {
    errors[field] = [`unknown value(s) ${bad.map((b) => `"${b}"`).join(', ')}; allowed: ${allowed.join(', ')}`];
    return [];
  }
  return [...new Set(items as T[])];
}

export function parseReplayQuery(query: Record<string, unknown>, lastEventIdHeader: string | undefined): ReplayQuery {
  const errors: FieldErrors = {};
  let createdFromMs: number | undefined;
  if (query.date !== undefined) {
    createdFromMs = typeof query.date === 'string' ? utcDayStart(query.date) : undefined;
    if (createdFromMs === undefined) errors.date = ['must be a date in the form YYYY-MM-DD'];
  }
  const resources = list(query.resources, RESOURCE_TYPES, 'resources', errors);
  const eventTypes = list(query.event_types, EVENT_TYPES, 'event_types', errors);
  let resumeAfter: LogPosition | undefined;
  try {
    const raw = typeof query.last_event_id === 'string' ? query.last_event_id : lastEventIdHeader;
    resumeAfter = parsePosition(raw, 'last_event_id');
  } catch {
    errors.last_event_id = ['must be an event id received from this service, e.g. 3-1042'];
  }
  if (Object.keys(errors).length > 0) throw badRequest('INVALID_REPLAY_QUERY', errors);
  return { createdFromMs, resources, eventTypes, resumeAfter };
}
