/**
 * The Kafka event log (kafkajs): the same port and semantics as the embedded log, on a real
 * cluster. Topic names and group ids get the configured prefix here and nowhere else, so callers
 * (and the messages they receive) only ever see the plain names.
 */
import { Kafka, logLevel as KafkaLogLevel, LogEntry } from 'kafkajs';
import type { Logger } from '@wellstream/logging';
import type { ConsumeOptions, EraseSelector, EventLog, GroupPosition, GroupSubscription, OutgoingMessage, Subscription, TailOptions, TopicSpec } from './event-log.port';
import { KafkaAdmin, topicConfig } from './kafka-admin';
import { KafkaGroupMember } from './kafka-consumer';
import { KafkaPublisher, TopicBatch } from './kafka-producer';
import { DEFAULT_CONSUMER_TIMING, DEFAULT_SLICE_TIMING, KafkaConsumerTiming, KafkaEventLogOptions, CLIENT_RETRY } from './kafka-settings';
import { KafkaTailReader } from './kafka-tail';
import { findMatchingKeys, tombstoneKeys } from './kafka-erasure';
import { KafkaTenantTopics } from './kafka-tenant-topics';
import { migrateToTenantTopics } from './kafka-tenant-migration';

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
  /** Readers of tenant slices are many and mostly idle: they long-poll longer (see DEFAULT_SLICE_TIMING). */
  private readonly sliceTiming: KafkaConsumerTiming;
  private readonly tenants: KafkaTenantTopics;
  private readonly subscriptions = new Set<Subscription>();
  private health: { at: number; ok: boolean } = { at: 0, ok: false };
  private closed = false;

  constructor(private readonly options: KafkaEventLogOptions) {
    this.prefix = options.prefix ?? '';
    this.timing = { ...DEFAULT_CONSUMER_TIMING, ...options.consumer };
    this.sliceTiming = { ...this.timing, ...DEFAULT_SLICE_TIMING, ...options.sliceConsumer };
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
    this.tenants = new KafkaTenantTopics(this.admin, (n) => this.topicName(n), options.replicationFactor ?? -1, options.topicConfigOverrides);
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
    this.tenants.register(spec);
  }

  /**
   * On a tenant-scoped topic each message goes to the shared topic (internal consumers) and to its
   * tenant's topic (that tenant's streams and replays), in one request: at least once on both.
   */
  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const batches: TopicBatch[] = [{ topic: this.topicName(topic), messages }];
    const slices = new Map<string, OutgoingMessage[]>();
    if (this.tenants.spec(topic)?.tenants) {
      for (const m of messages) {
        if (!m.tenant) throw new Error(`every message on the tenant-scoped topic ${topic} needs a tenant`);
        (slices.get(m.tenant) ?? slices.set(m.tenant, []).get(m.tenant)!).push(m);
      }
      for (const [tenant, list] of slices) batches.push({ topic: this.topicName(this.tenants.sliceName(topic, tenant)), messages: list });
    }
    // A slice deleted meanwhile (its customer went) fails the send: create it again on the retry.
    await this.publisher.publish(batches, async (retry) => {
      await Promise.all([...slices.keys()].map((t) => this.tenants.ensure(topic, t, retry)));
    });
  }

  /** The broker-side topic a reader reads: the shared topic, or the tenant's own. */
  private async readTopic(topic: string, tenant: string | undefined): Promise<string> {
    if (tenant === undefined) return this.topicName(topic);
    await this.tenants.ensure(topic, tenant);
    return this.topicName(this.tenants.sliceName(topic, tenant));
  }

  async consume(options: ConsumeOptions): Promise<GroupSubscription> {
    const kafkaTopic = await this.readTopic(options.topic, options.tenant);
    const kafkaGroupId = this.groupName(options.groupId);
    if (!options.fromBeginning) await this.pinNewGroupAtEnd(kafkaGroupId, kafkaTopic);
    const timing = options.tenant === undefined ? this.timing : this.sliceTiming;
    const committedOffsets = () => this.admin.committedOffsets(kafkaGroupId, kafkaTopic);
    const member = new KafkaGroupMember({ kafka: this.kafka, kafkaTopic, kafkaGroupId, options, timing, logger: this.options.logger, committedOffsets });
    try {
      await member.start();
    } catch (err) {
      // A member that could not start (the broker went away) leaves no consumer behind retrying on its own.
      await member.stop().catch(() => {});
      throw err;
    }
    return Object.assign(this.track(() => member.stop()), { rewind: (partition: number, offset: number) => member.rewind(partition, offset) });
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
      kafkaTopic: await this.readTopic(options.topic, options.tenant),
      groupPrefix: this.prefix,
      options,
      timing: options.tenant === undefined ? this.timing : this.sliceTiming,
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

  async startGroupAtEnd(groupId: string, topic: string, tenant?: string): Promise<void> {
    const kafkaTopic = await this.readTopic(topic, tenant);
    const marks = await this.admin.watermarks(kafkaTopic);
    await this.admin.setOffsets(this.groupName(groupId), kafkaTopic, marks.map((m) => ({ partition: m.partition, offset: m.high })));
  }

  async ensureTenant(topic: string, tenant: string): Promise<void> {
    await this.tenants.ensure(topic, tenant);
  }

  /**
   * Reads only the tenant's topic (one customer's data) for keys it does not know: the shared
   * topic holds the same messages under the same keys, so they are tombstoned there too.
   */
  async eraseMessages(topic: string, selector: EraseSelector): Promise<number> {
    const spec = this.tenants.spec(topic);
    if (!spec?.compacted) return 0;
    const keys = new Set(selector.keys ?? []);
    const sliced = selector.tenant !== undefined && spec.tenants !== undefined;
    const sliceTopic = sliced ? await this.readTopic(topic, selector.tenant) : undefined;
    let tombstones = 0;
    if (sliceTopic) {
      const found = await findMatchingKeys({ kafka: this.kafka, admin: this.admin, groupPrefix: this.prefix, partitionKey: selector.partitionKey, matches: selector.matches, kafkaTopic: sliceTopic });
      for (const k of found) keys.add(k);
      tombstones += await tombstoneKeys(this.kafka, this.admin, sliceTopic, selector.partitionKey, [...keys]);
    }
    return tombstones + (await tombstoneKeys(this.kafka, this.admin, this.topicName(topic), selector.partitionKey, [...keys]));
  }

  async dropTenant(topic: string, tenant: string): Promise<void> {
    await this.tenants.drop(topic, tenant);
  }

  /** Copies untagged messages of the shared topic into their tenants' topics (see kafka-tenant-migration). */
  async migrateTenants(topic: string): Promise<number> {
    const spec = this.tenants.spec(topic);
    if (!spec?.tenants) throw new Error(`topic ${topic} has no tenant slices (ensureTopic it with a tenants spec first)`);
    return migrateToTenantTopics({
      kafka: this.kafka,
      admin: this.admin,
      publisher: this.publisher,
      tenants: this.tenants,
      topic,
      field: spec.tenants.field,
      kafkaTopic: this.topicName(topic),
      kafkaGroupId: this.groupName(`migrate.${topic}.tenants`),
      sliceTopic: (tenant) => this.topicName(this.tenants.sliceName(topic, tenant)),
      logger: this.options.logger,
    });
  }

  /** Members commit after each message they handled (kafka-consumer.ts), so this is exact. */
  async groupPositions(groupId: string, topic: string): Promise<GroupPosition[]> {
    const kafkaTopic = this.topicName(topic);
    const [marks, committed] = await Promise.all([this.admin.watermarks(kafkaTopic), this.admin.committedOffsets(this.groupName(groupId), kafkaTopic)]);
    const done = new Map(committed.map((c) => [c.partition, c.offset]));
    return marks
      .map((m) => {
        const c = done.get(m.partition) ?? -1;
        return { partition: m.partition, handled: c >= 0 ? c : m.low, end: m.high };
      })
      .sort((a, b) => a.partition - b.partition);
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
