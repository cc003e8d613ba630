/**
 * Which events of the `events` topic a stream or replay connection delivers. Resource filters
 * apply to `data` events only (connection and rule events have no resource): use the event-type
 * filter to leave those out. Likewise `start_date` applies to events that carry a start time.
 */
import type { EventType, ResourceType } from '@wellstream/catalog';
import { acceptsSchemaVersion, CustomerEvent, customerEventsTopic } from '@wellstream/contracts';

export interface EventFilter {
  customerId: string;
  /** Empty or absent: every resource. */
  resources?: readonly ResourceType[];
  /** Empty or absent: every event type. */
  eventTypes?: readonly EventType[];
  /** Stream `start_date`: events whose start_time is at or after this instant (ms). */
  startTimeFromMs?: number;
  /** Replay `date`: events whose created_at is at or after this instant (ms). */
  createdFromMs?: number;
}

export function matchesFilter(f: EventFilter, e: CustomerEvent): boolean {
  if (e.customer_id !== f.customerId) return false;
  if (f.eventTypes?.length && !f.eventTypes.includes(e.event_type)) return false;
  if (e.event_type === 'data' && f.resources?.length && !(e.resource && f.resources.includes(e.resource))) return false;
  if (f.startTimeFromMs !== undefined && e.start_time !== undefined && !(Date.parse(e.start_time) >= f.startTimeFromMs)) return false;
  if (f.createdFromMs !== undefined && !(Date.parse(e.created_at) >= f.createdFromMs)) return false;
  return true;
}

/**
 * Reads an envelope cheaply (every connection reads every event of the topic, so no full schema
 * validation here: publishers validate). Undefined for anything that is not an envelope.
 */
export function parseCustomerEvent(value: string): CustomerEvent | undefined {
  try {
    const e = JSON.parse(value) as CustomerEvent;
    if (!e || typeof e !== 'object' || typeof e.customer_id !== 'string' || typeof e.event_type !== 'string') return undefined;
    if (!e.payload || typeof e.payload !== 'object') return undefined;
    // A version this release cannot read is skipped like any other non-envelope (deploy order: README).
    if (!acceptsSchemaVersion(customerEventsTopic, e as unknown as Record<string, unknown>)) return undefined;
    return e;
  } catch {
    return undefined;
  }
}

/** "YYYY-MM-DD" → midnight UTC in ms, or undefined when it is not a real calendar date. */
export function utcDayStart(date: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) return undefined;
  return ms;
}
