/**
 * A topic of the catalog: its name, its Kafka settings and the joi schema of its messages, so the
 * TypeScript type, the validation and the topic configuration cannot drift apart.
 */
import Joi from 'joi';
import type { EventLog, LogMessage, OutgoingMessage, Subscription, TopicSpec } from '@wellstream/bus';
import type { Logger } from '@wellstream/logging';

export interface TopicDefinition<T> {
  spec: TopicSpec;
  schema: Joi.Schema<T>;
  /** The compaction key of a message. */
  key(event: T): string;
  /** Which messages must stay in order relative to each other (e.g. one user's). */
  partitionKey(event: T): string;
  /** Tenant-scoped topics (spec.tenants): whose slice the event belongs to. */
  tenant?(event: T): string;
}

export class InvalidEventError extends Error {
  constructor(topic: string, detail: string) {
    super(`invalid event for topic ${topic}: ${detail}`);
    this.name = 'InvalidEventError';
  }
}

export function validateEvent<T>(topic: TopicDefinition<T>, event: unknown): T {
  const { value, error } = topic.schema.validate(event, { abortEarly: false });
  if (error) throw new InvalidEventError(topic.spec.name, error.message);
  return value as T;
}

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
  return messageOf(topic, event, JSON.stringify(event));
}

export async function publishEvents<T>(log: EventLog, topic: TopicDefinition<T>, events: T[]): Promise<void> {
  const messages = events.map((e) => {
    const valid = validateEvent(topic, e);
    return messageOf(topic, valid, JSON.stringify(valid));
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
}

/**
 * Consumes a catalog topic as a group member. A message that fails validation is logged and
 * skipped (it can never become valid, and must not block the partition); a handler error is
 * retried by the log, so nothing valid is lost.
 */
export async function consumeEvents<T>(
  log: EventLog,
  topic: TopicDefinition<T>,
  options: { groupId: string; fromBeginning?: boolean; logger: Logger; handle(event: T, ctx: EventContext): Promise<void> },
): Promise<Subscription> {
  return log.consume({
    topic: topic.spec.name,
    groupId: options.groupId,
    fromBeginning: options.fromBeginning ?? true,
    handle: async (message) => {
      let event: T;
      try {
        event = validateEvent(topic, JSON.parse(message.value));
      } catch (err) {
        options.logger.error('skipping an invalid event', { topic: message.topic, partition: message.partition, offset: message.offset, error: err });
        return;
      }
      const stats = consumerStats.get(options.groupId) ?? consumerStats.set(options.groupId, { lagMs: 0, handled: 0, failed: 0 }).get(options.groupId)!;
      try {
        await options.handle(event, { message });
      } catch (err) {
        stats.failed++;
        throw err;
      }
      stats.handled++;
      stats.lagMs = Math.max(0, Date.now() - message.timestamp);
    },
  });
}
