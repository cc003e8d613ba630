/**
 * Which events of the `events` topic a stream or replay connection delivers. Resource filters
 * apply to `data` events only (connection and rule events have no resource): use the event-type
 * filter to leave those out. Likewise `start_date` applies to events that carry a start time.
 */
import type { EventType, ResourceType } from '@wellstream/catalog';
import { CustomerEventEnvelope, customerEventEnvelopeSchema, customerEventsTopic, decodeEventAs } from '@wellstream/contracts';

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

export function matchesFilter(f: EventFilter, e: CustomerEventEnvelope): boolean {
  if (e.customer_id !== f.customerId) return false;
  if (f.eventTypes?.length && !f.eventTypes.includes(e.event_type)) return false;
  if (e.event_type === 'data' && f.resources?.length && !(e.resource && f.resources.includes(e.resource))) return false;
  const startTime = e.event_type === 'connection' ? undefined : e.start_time;
  if (f.startTimeFromMs !== undefined && startTime !== undefined && !(Date.parse(startTime) >= f.startTimeFromMs)) return false;
  if (f.createdFromMs !== undefined && !(Date.parse(e.created_at) >= f.createdFromMs)) return false;
  return true;
}

/**
 * Reads an event's envelope as the contract types it (an accepted schema version; the payload is
 * forwarded as it is, so only its being an object is checked). Undefined for anything else: a
 * version this release cannot read is skipped like any other non-event (deploy order: README).
 */
export function parseCustomerEvent(value: string): CustomerEventEnvelope | undefined {
  try {
    return decodeEventAs(customerEventsTopic, value, customerEventEnvelopeSchema);
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
