/**
 * The `events` topic: every customer-facing event (`data`, `connection`, `rule`). Streams and
 * replay deliver `payload` as the SSE data; the envelope carries what filtering and routing need.
 * Keyed by record id (compaction keeps a record's newest version), partitioned by user id.
 */
import Joi from 'joi';
import { RESOURCE_TYPES } from '@wellstream/catalog';
import { recordPayloadSchema } from './record-payload';
import type { TopicDefinition } from './topic';
import { array, Infer, nullable, number, object, oneOf, optional, string, Typed, union, unknownObject } from './typed-schema';

export const THIRTY_DAYS_MS = 30 * 24 * 3600 * 1000;

const isoTime = () => string(Joi.string().isoDate());

/** What every customer event carries, whatever its type: what filtering and routing need. */
const envelope = {
  /** Unique per event; the SSE id is derived from the log position, not from this. */
  id: string(),
  /** Record id for data events, else the event id: the compaction key. */
  key: string(),
  customer_id: string(),
  organization_id: string(),
  user_id: string(),
  /** When the platform processed it (replay `date` filter). */
  created_at: isoTime(),
};

const eventUser = object({ uid: string(), user_id: string(), organization_id: string() });

export const CONNECTION_ACTIONS = ['connected', 'disconnected', 'auth_expired', 'reconnected', 'backfill_completed'] as const;

/**
 * Payload of a `connection` event: a user connected or disconnected a source, a provider
 * connection lost its authorization or got it back, or a resource's first history arrived
 * (`resource` and `range` then say which and what span).
 */
export const connectionPayloadSchema = object({
  user: eventUser,
  source: object({ type: string() }),
  action: oneOf(CONNECTION_ACTIONS),
  resource: optional(string()),
  range: optional(object({ start: string(), end: string() })),
  reason: optional(string()),
  created_at: string(),
});
export type ConnectionPayload = Infer<typeof connectionPayloadSchema>;

/** Payload of a `rule` event: the rule as the API shows it (without its timestamps) and what it counted. */
export const rulePayloadSchema = object({
  user: eventUser,
  rule: object({
    id: string(),
    type: string(),
    window: string(),
    message: string(),
    metric: object({ type: string(), sub_type: nullable(string()), unit: nullable(string()), origin: nullable(string()) }),
    threshold: object({ value: number(), comparator: string() }),
  }),
  data: array(object({ type: string(), data: object({ count: number() }) })),
  created_at: string(),
});
export type RulePayload = Infer<typeof rulePayloadSchema>;

/** The events of the topic, each with the payload schema of its type. */
const eventsWith = <D, C, R>(payloads: { data: Typed<D>; connection: Typed<C>; rule: Typed<R> }) => ({
  /** A record was created, changed or deleted; the payload is the record. */
  data: object({
    ...envelope,
    event_type: oneOf(['data']),
    /** The record's type (stream resource filter). */
    resource: oneOf(RESOURCE_TYPES),
    /** The record's start_time (stream start_date filter). */
    start_time: isoTime(),
    payload: payloads.data,
  }),
  connection: object({ ...envelope, event_type: oneOf(['connection']), payload: payloads.connection }),
  rule: object({
    ...envelope,
    event_type: oneOf(['rule']),
    /** When the rule triggered, so a stream's start_date filter applies to rule events too. */
    start_time: optional(isoTime()),
    payload: payloads.rule,
  }),
});

const EVENTS = eventsWith({ data: recordPayloadSchema, connection: connectionPayloadSchema, rule: rulePayloadSchema });
export type DataEvent = Infer<typeof EVENTS.data>;
export type ConnectionEvent = Infer<typeof EVENTS.connection>;
export type RuleEvent = Infer<typeof EVENTS.rule>;
/** Every event of the `events` topic, told apart by `event_type`. */
export type CustomerEvent = DataEvent | ConnectionEvent | RuleEvent;
export const customerEventSchema: Typed<CustomerEvent> = union('event_type', EVENTS);

/**
 * The same events with their payload unchecked inside: for readers that route and filter by the
 * envelope and forward the payload as it is (streams and replay read every event of a customer on
 * every connection, where validating each record again would cost more than delivering it).
 */
const ENVELOPES = eventsWith({ data: unknownObject(), connection: unknownObject(), rule: unknownObject() });
export type CustomerEventEnvelope = Infer<(typeof ENVELOPES)[keyof typeof ENVELOPES]>;
export const customerEventEnvelopeSchema: Typed<CustomerEventEnvelope> = union('event_type', ENVELOPES);

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
  schema: customerEventSchema.joi,
  key: (e) => e.key,
  partitionKey: (e) => e.user_id,
  tenant: (e) => e.customer_id,
};
