/**
 * The Stream: a customer's named, filtered view of the `events` topic, backed by one consumer group
 * (its `group`). Filters are fixed at creation so every client of the stream sees the same view.
 */
import { randomBytes } from 'node:crypto';
import type { EventType, ResourceType } from '@wellstream/catalog';

/** Spec: "5 per customer (counts streams, not connections)". */
export const MAX_STREAMS_PER_CUSTOMER = 5;
// Published (the catalog's, as the endpoints declare it).
export { MAX_STREAM_NAME_LENGTH } from '@wellstream/catalog';

export interface StreamDoc {
  _id: string;
  customer_id: string;
  name: string;
  /** 0..MAX_STREAMS_PER_CUSTOMER-1, unique per customer: makes the 5-stream limit atomic. */
  slot: number;
  group: string;
  start_date: string | null;
  resource_filter: ResourceType[];
  event_type_filter: EventType[];
  created_at: string;
  updated_at: string;
}

/** The stream as the API shows it (the Stream schema of the OpenAPI document). */
export interface StreamView {
  id: string;
  name: string;
  group: string;
  members: number;
  start_date: string | null;
  resource_filter: ResourceType[];
  event_type_filter: EventType[];
  created_at: string;
  updated_at: string;
  deleted_at?: string;
}

export function toStreamView(doc: StreamDoc, members: number): StreamView {
  return {
    id: doc._id,
    name: doc.name,
    group: doc.group,
    members,
    start_date: doc.start_date,
    resource_filter: doc.resource_filter,
    event_type_filter: doc.event_type_filter,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

let lastMs = 0;
let counter = 0;

/**
 * Ids sort by creation time (time, then a per-process counter), so "most recent first" has a stable
 * tie-break for streams created within the same millisecond; the random tail keeps them unguessable.
 */
export function newStreamId(now: number): string {
  counter = now === lastMs ? counter + 1 : 0;
  lastMs = now;
  return `${now.toString(36).padStart(9, '0')}${counter.toString(36).padStart(3, '0')}${randomBytes(6).toString('hex')}`;
}

/** The consumer group of a stream (the Kafka adapter adds WELLSTREAM_TOPIC_PREFIX). */
export const groupNameFor = (streamId: string) => `stream-${streamId}`;
