/**
 * The `events` topic: every customer-facing event (`data`, `connection`, `rule`). Streams and
 * replay deliver `payload` as the SSE data; the envelope carries what filtering and routing need.
 * Keyed by record id (compaction keeps a record's newest version), partitioned by user id.
 */
import Joi from 'joi';
import { EVENT_TYPES, EventType, RESOURCE_TYPES, ResourceType } from '@wellstream/catalog';
import type { TopicDefinition } from './topic';

export const THIRTY_DAYS_MS = 30 * 24 * 3600 * 1000;

export interface CustomerEvent {
  /** Unique per event; the SSE id is derived from the log position, not from this. */
  id: string;
  event_type: EventType;
  /** Record id for data events, else the event id: the compaction key. */
  key: string;
  customer_id: string;
  organization_id: string;
  user_id: string;
  /** Data events: the record's type. */
  resource?: ResourceType;
  /** Data events: the record's start_time (stream start_date filter). */
  start_time?: string;
  /** When the platform processed it (replay `date` filter). */
  created_at: string;
  payload: Record<string, unknown>;
}

const isoTime = Joi.string().isoDate();

export const customerEventSchema = Joi.object<CustomerEvent>({
  id: Joi.string().required(),
  event_type: Joi.string()
    .valid(...EVENT_TYPES)
    .required(),
  key: Joi.string().required(),
  customer_id: Joi.string().required(),
  organization_id: Joi.string().required(),
  user_id: Joi.string().required(),
  resource: Joi.string().valid(...RESOURCE_TYPES),
  start_time: isoTime,
  created_at: isoTime.required(),
  payload: Joi.object().unknown(true).required(),
});

/**
 * Tenant-scoped by customer: streams and replays read only their customer's slice (on Kafka a
 * topic per customer, `events.tenant.<customer id>`), while push and rules read the whole topic.
 */
export const customerEventsTopic: TopicDefinition<CustomerEvent> = {
  spec: {
    name: 'events',
    partitions: 12,
    compacted: true,
    retentionMs: THIRTY_DAYS_MS,
    tenants: { partitions: 12, field: 'customer_id' },
  },
  schema: customerEventSchema,
  key: (e) => e.key,
  partitionKey: (e) => e.user_id,
  tenant: (e) => e.customer_id,
};

/** Payload of a `connection` event (DESIGN.md section 2). */
export interface ConnectionPayload {
  user: { uid: string; user_id: string; organization_id: string };
  source: { type: string };
  action: 'connected' | 'disconnected';
  created_at: string;
}
