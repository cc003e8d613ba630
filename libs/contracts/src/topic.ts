/**
 * A topic of the catalog: its name, its Kafka settings and the joi schema of its messages, so the
 * TypeScript type, the validation and the topic configuration cannot drift apart.
 */
import Joi from 'joi';
import type { EventLog, LogMessage, OutgoingMessage, ReadBatch, Subscription, TopicSpec } from '@wellstream/bus';
import type { Logger } from '@wellstream/logging';
import { fastValidate } from './fast-validation';
import { Typed, validateTyped } from './typed-schema';

export interface TopicDefinition<T> {
  spec: TopicSpec;
  schema: Joi.Schema<T>;
  /** The compaction key of a message. */
  key(event: T): string;
  /** Which messages must stay in order relative to each other (e.g. one user's). */
  partitionKey(event: T): string;
  /** Tenant-scoped topics (spec.tenants): whose slice the event belongs to. */
  tenant?(event: T): string;
  /** The schema version producers write (default CURRENT_SCHEMA_VERSION); see schema-version below. */
  schemaVersion?: number;
}

/**
 * Schema versions, so services can be deployed one at a time: every message carries
 * `schema_version`; producers write the current version; consumers accept the current and the
 * previous one and ignore fields they do not know. Version 1 is what releases before versioning
 * wrote: the same shapes without the field. A change that a previous consumer could not read
 * (renaming or retyping a field) raises the version; adding an optional field does not.
 */
export const SCHEMA_VERSION_FIELD = 'schema_version';
export const CURRENT_SCHEMA_VERSION = 2;

export const schemaVersionOf = (topic: TopicDefinition<unknown>): number => topic.schemaVersion ?? CURRENT_SCHEMA_VERSION;
export const acceptedSchemaVersions = (topic: TopicDefinition<unknown>): number[] => [schemaVersionOf(topic) - 1, schemaVersionOf(topic)];

/** The version a message claims (1 when it carries none), or undefined when it is not a positive integer. */
export function messageSchemaVersion(message: Record<string, unknown>): number | undefined {
  const v = message[SCHEMA_VERSION_FIELD];
  if (v === undefined) return 1;
  return Number.isInteger(v) && (v as number) > 0 ? (v as number) : undefined;
}

/** True when a consumer of `topic` may read a message claiming this version. */
export const acceptsSchemaVersion = (topic: TopicDefinition<unknown>, message: Record<string, unknown>): boolean =>
  acceptedSchemaVersions(topic).includes(messageSchemaVersion(message) ?? -1);

export class InvalidEventError extends Error {
  constructor(topic: string, detail: string) {
    super(`invalid event for topic ${topic}: ${detail}`);
    this.name = 'InvalidEventError';
  }
}

export function validateEvent<T>(topic: TopicDefinition<T>, event: unknown): T {
  const fast = fastValidate(topic.schema, event, { abortEarly: false });
  if (fast) return fast.value as T;
  const { value, error } = topic.schema.validate(event, { abortEarly: false });
  if (error) throw new InvalidEventError(topic.spec.name, error.message);
  return value as T;
}

/**
 * Reads a message as a consumer: an accepted schema version (else InvalidEventError), fields this
 * release does not know ignored, validated against this release's schema.
 */
export function decodeEvent<T>(topic: TopicDefinition<T>, value: string): T {
  return decodeEventAs(topic, value, { joi: topic.schema });
}

/** decodeEvent, validated against another schema of the topic's messages (e.g. the envelope only). */
export function decodeEventAs<S>(topic: TopicDefinition<unknown>, value: string, schema: Typed<S>): S {
  const raw = JSON.parse(value) as unknown;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new InvalidEventError(topic.spec.name, 'not a JSON object');
  const { [SCHEMA_VERSION_FIELD]: _version, ...event } = raw as Record<string, unknown>;
  if (!acceptsSchemaVersion(topic, raw as Record<string, unknown>)) {
    throw new InvalidEventError(topic.spec.name, `schema_version ${JSON.stringify(_version)} is not one this release reads (${acceptedSchemaVersions(topic).join(', ')})`);
  }
  const result = validateTyped(schema, event, { abortEarly: false, allowUnknown: true });
  if (result.error) throw new InvalidEventError(topic.spec.name, result.error.message);
  return result.value;
}

/** The serialized message: the event with the topic's current schema version. */
const encode = <T>(topic: TopicDefinition<T>, event: T): string => JSON.stringify({ [SCHEMA_VERSION_FIELD]: schemaVersionOf(topic), ...event });

/** The log message for an event already validated: keyed, partitioned, and tagged with its tenant. */
function messageOf<T>(topic: TopicDefinition<T>, event: T, value: string): OutgoingMessage {
  return {
    key: topic.key(event),
    partitionKey: topic.partitionKey(event),
    value,
    ...(topic.tenant ? { tenant: topic.tenant(event) } : {}),
  };
}

/**
 * The log message for a catalog event, validated but published as written (joi would rewrite times
 * like start_time into another ISO form): for producers whose events echo what a customer sent.
 */
export function eventMessage<T>(topic: TopicDefinition<T>, event: T): OutgoingMessage {
  validateEvent(topic, event);
  return messageOf(topic, event, encode(topic, event));
}

export async function publishEvents<T>(log: EventLog, topic: TopicDefinition<T>, events: T[]): Promise<void> {
  const messages = events.map((e) => {
    const valid = validateEvent(topic, e);
    return messageOf(topic, valid, encode(topic, valid));
  });
  await log.publish(topic.spec.name, messages);
}

/** Per consumer group in this process: how far behind the last handled message was, and counts. */
export interface ConsumerStats {
  /** Time from the message's append to the end of its handling, ms (the group's time lag). */
  lagMs: number;
  handled: number;
  failed: number;
}

const consumerStats = new Map<string, ConsumerStats>();

/** The stats of this process's groups whose id starts with `prefix` (metrics read them). */
export function consumerStatsOf(prefix: string): [string, ConsumerStats][] {
  return [...consumerStats].filter(([group]) => group.startsWith(prefix));
}

/** Gauges for a metrics registry: the time lag and counts of this service's consumer groups. */
export function consumerGauges(prefix: string): { name: string; help: string; labels: string[]; read: () => { labels: Record<string, string>; value: number }[] }[] {
  const per = (pick: (s: ConsumerStats) => number) => () => consumerStatsOf(prefix).map(([group, s]) => ({ labels: { group }, value: pick(s) }));
  return [
    { name: 'consumer_lag_seconds', help: 'Time from append to handled, of the last message each consumer group handled', labels: ['group'], read: per((s) => s.lagMs / 1000) },
    { name: 'consumer_handled_messages', help: 'Messages each consumer group handled since start', labels: ['group'], read: per((s) => s.handled) },
    { name: 'consumer_failed_messages', help: 'Handler failures (retried) of each consumer group since start', labels: ['group'], read: per((s) => s.failed) },
  ];
}

export interface EventContext {
  message: LogMessage;
  /** Lookups shared by the events read together (ReadBatch in libs/bus). */
  batch: ReadBatch;
}

/**
 * Consumes a catalog topic as a group member (decodeEvent: the current or the previous schema
 * version, unknown fields ignored). A message that fails validation is logged and skipped (it can never become valid, and must not block the partition); a handler error is
 * retried by the log, so nothing valid is lost.
 */
export async function consumeEvents<T>(
  log: EventLog,
  topic: TopicDefinition<T>,
  options: { groupId: string; fromBeginning?: boolean; commitEveryMs?: number; logger: Logger; handle(event: T, ctx: EventContext): Promise<void> },
): Promise<Subscription> {
  return log.consume({
    topic: topic.spec.name,
    groupId: options.groupId,
    fromBeginning: options.fromBeginning ?? true,
    commitEveryMs: options.commitEveryMs,
    handle: async (message, batch) => {
      // A tombstone (an erasure on Kafka, libs/bus kafka-erasure.ts): nothing to handle.
      if (message.value === '') return;
      let event: T;
      try {
        event = decodeEvent(topic, message.value);
      } catch (err) {
        options.logger.error('skipping an invalid event', { topic: message.topic, partition: message.partition, offset: message.offset, error: err });
        return;
      }
      const stats = consumerStats.get(options.groupId) ?? consumerStats.set(options.groupId, { lagMs: 0, handled: 0, failed: 0 }).get(options.groupId)!;
      try {
        await options.handle(event, { message, batch });
      } catch (err) {
        stats.failed++;
        throw err;
      }
      stats.handled++;
      stats.lagMs = Math.max(0, Date.now() - message.timestamp);
    },
  });
}
