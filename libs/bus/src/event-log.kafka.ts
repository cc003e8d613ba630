/**
 * The Kafka event log (kafkajs): the same port and semantics as the embedded log, on a real
 * cluster. Topic names and group ids get the configured prefix here and nowhere else, so callers
 * (and the messages they receive) only ever see the plain names.
 */
import { Kafka, logLevel as KafkaLogLevel, LogEntry } from 'kafkajs';
import type { Logger } from '@wellstream/logging';
import type { ConsumeOptions, EventLog, OutgoingMessage, Subscription, TailOptions, TopicSpec } from './event-log.port';
import { KafkaAdmin, topicConfig } from './kafka-admin';
import { KafkaGroupMember } from './kafka-consumer';
import { KafkaPublisher } from './kafka-producer';
import { DEFAULT_CONSUMER_TIMING, KafkaConsumerTiming, KafkaEventLogOptions, CLIENT_RETRY } from './kafka-settings';
import { KafkaTailReader } from './kafka-tail';

const HEALTH_CACHE_MS = 2_000;

/** kafkajs logs through ours; its errors during broker restarts are expected noise, so warn. */
function kafkaLogCreator(logger: Logger) {
  return () =>
    ({ level, log }: LogEntry) => {
      const { message, ...rest } = log;
      const meta = { component: 'kafkajs', ...rest };
      // Our producer limits retries on purpose (a bounded publish, then our own retry): at least once.
      if (message.startsWith('Limiting retries for the idempotent producer')) logger.debug(message, meta);
      else if (level <= KafkaLogLevel.WARN) logger.warn(message, meta);
      else if (level === KafkaLogLevel.INFO) logger.debug(message, meta);
    };
}

export class KafkaEventLog implements EventLog {
  private readonly kafka: Kafka;
  private readonly admin: KafkaAdmin;
  private readonly publisher: KafkaPublisher;
  private readonly prefix: string;
  private readonly timing: KafkaConsumerTiming;
  private readonly subscriptions = new Set<Subscription>();
  private health: { at: number; ok: boolean } = { at: 0, ok: false };
  private closed = false;

  constructor(private readonly options: KafkaEventLogOptions) {
    this.prefix = options.prefix ?? '';
    this.timing = { ...DEFAULT_CONSUMER_TIMING, ...options.consumer };
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      connectionTimeout: 3_000,
      requestTimeout: 30_000,
      retry: CLIENT_RETRY,
      logLevel: KafkaLogLevel.WARN,
      logCreator: kafkaLogCreator(options.logger),
    });
    this.admin = new KafkaAdmin(this.kafka);
    this.publisher = new KafkaPublisher(this.kafka, options.logger);
  }

  private topicName(name: string): string {
    return `${this.prefix}${name}`;
  }

  private groupName(groupId: string): string {
    return `${this.prefix}${groupId}`;
  }

  async ensureTopic(spec: TopicSpec): Promise<void> {
    const config = topicConfig(spec, this.options.topicConfigOverrides?.(spec));
    await this.admin.ensureTopic(this.topicName(spec.name), spec, config, this.options.replicationFactor ?? -1);
  }

  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    await this.publisher.publish(this.topicName(topic), messages);
  }

  async consume(options: ConsumeOptions): Promise<Subscription> {
    const kafkaTopic = this.topicName(options.topic);
    const kafkaGroupId = this.groupName(options.groupId);
    if (!options.fromBeginning) await this.pinNewGroupAtEnd(kafkaGroupId, kafkaTopic);
    const member = new KafkaGroupMember({ kafka: this.kafka, kafkaTopic, kafkaGroupId, options, timing: this.timing, logger: this.options.logger });
    await member.start();
    return this.track(() => member.stop());
  }

  /**
   * kafkajs resolves "latest" at the first fetch, so messages published between consume() and
   * that fetch would be skipped; the embedded log pins the start at join. Do the same for a group
   * that has never committed (and has no members, or setOffsets refuses: then it already started).
   */
  private async pinNewGroupAtEnd(kafkaGroupId: string, kafkaTopic: string): Promise<void> {
    try {
      if (!(await this.admin.hasNoCommits(kafkaGroupId, kafkaTopic))) return;
      const marks = await this.admin.watermarks(kafkaTopic);
      await this.admin.setOffsets(kafkaGroupId, kafkaTopic, marks.map((m) => ({ partition: m.partition, offset: m.high })));
    } catch (err) {
      this.options.logger.debug('could not pin a new group at the end', { group: kafkaGroupId, error: err });
    }
  }

  async tail(options: TailOptions): Promise<Subscription> {
    const reader = new KafkaTailReader({
      kafka: this.kafka,
      admin: this.admin,
      kafkaTopic: this.topicName(options.topic),
      groupPrefix: this.prefix,
      options,
      timing: this.timing,
      logger: this.options.logger,
    });
    try {
      await reader.start();
    } catch (err) {
      await reader.stop();
      throw err;
    }
    return this.track(() => reader.stop());
  }

  private track(stop: () => Promise<void>): Subscription {
    let stopping: Promise<void> | undefined;
    const sub: Subscription = {
      stop: () => {
        stopping ??= stop().finally(() => this.subscriptions.delete(sub));
        return stopping;
      },
    };
    this.subscriptions.add(sub);
    return sub;
  }

  async startGroupAtEnd(groupId: string, topic: string): Promise<void> {
    const kafkaTopic = this.topicName(topic);
    const marks = await this.admin.watermarks(kafkaTopic);
    await this.admin.setOffsets(this.groupName(groupId), kafkaTopic, marks.map((m) => ({ partition: m.partition, offset: m.high })));
  }

  async groupMemberCount(groupId: string): Promise<number> {
    return this.admin.memberCount(this.groupName(groupId));
  }

  /** Cached briefly: health endpoints are polled, and a metadata request per poll is wasteful. */
  async healthy(): Promise<boolean> {
    if (this.closed) return false;
    if (Date.now() - this.health.at < HEALTH_CACHE_MS) return this.health.ok;
    let ok = false;
    try {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.admin.ping(),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('kafka health check timed out')), 3_000))),
      ]).finally(() => clearTimeout(timer));
      ok = true;
    } catch {
      ok = false;
    }
    this.health = { at: Date.now(), ok };
    return ok;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    this.closed = true;
    await this.publisher.disconnect().catch(() => {});
    await this.admin.disconnect().catch(() => {});
  }
}
