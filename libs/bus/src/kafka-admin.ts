/**
 * The Kafka admin side of the event log: topics with explicit configuration, group positions
 * (set, read), group membership and cleanup of throwaway groups. Names here are already prefixed.
 */
import { Admin, ConfigResourceTypes, Kafka } from 'kafkajs';
import type { TopicSpec } from './event-log.port';

/** Group states in which the members listed by DescribeGroups are really in the group. */
const ENSURE_TOPIC_DEADLINE_MS = 30_000;

const LIVE_STATES = new Set(['Stable', 'PreparingRebalance', 'CompletingRebalance']);

export function topicConfig(spec: TopicSpec, overrides: Record<string, string> = {}): Record<string, string> {
  const policy = spec.compacted ? (spec.retentionMs ? 'compact,delete' : 'compact') : 'delete';
  return {
    'cleanup.policy': policy,
    ...(spec.retentionMs ? { 'retention.ms': String(spec.retentionMs) } : {}),
    ...overrides,
  };
}

export interface PartitionOffset {
  partition: number;
  offset: number;
}

export class KafkaAdmin {
  private readonly admin: Admin;
  private connecting?: Promise<void>;

  constructor(private readonly kafka: Kafka) {
    this.admin = kafka.admin({ retry: { retries: 12, initialRetryTime: 300, maxRetryTime: 5_000 } });
  }

  connect(): Promise<void> {
    this.connecting ??= this.admin.connect().catch((err) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }

  /**
   * Creates the topic, or brings an existing one up to the spec (more partitions, same configs).
   * Every service ensures the topics it uses at start-up, often at the same moment as the others:
   * "already exists" and metadata that has not caught up yet are retried for a bounded time.
   */
  async ensureTopic(name: string, spec: TopicSpec, config: Record<string, string>, replicationFactor: number): Promise<void> {
    const deadline = Date.now() + ENSURE_TOPIC_DEADLINE_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.ensureTopicOnce(name, spec, config, replicationFactor);
        return;
      } catch (err) {
        if (Date.now() >= deadline) throw err;
        await new Promise((r) => setTimeout(r, Math.min(200 * attempt, 2_000)));
      }
    }
  }

  private async ensureTopicOnce(name: string, spec: TopicSpec, config: Record<string, string>, replicationFactor: number): Promise<void> {
    await this.connect();
    const configEntries = Object.entries(config).map(([n, value]) => ({ name: n, value }));
    const created = await this.admin.createTopics({
      waitForLeaders: true,
      topics: [{ topic: name, numPartitions: spec.partitions, replicationFactor, configEntries }],
    });
    if (created) return this.untilLeadersServe(name);
    const have = await this.partitionCount(name);
    if (have === 0) throw new Error(`topic ${name} exists but has no metadata yet`);
    // Never shrink (keys would move); grow when the spec asks for more.
    if (have < spec.partitions) await this.admin.createPartitions({ topicPartitions: [{ topic: name, count: spec.partitions }] });
    await this.admin.alterConfigs({ validateOnly: false, resources: [{ type: ConfigResourceTypes.TOPIC, name, configEntries }] });
  }

  /**
   * A topic just created can still answer NOT_LEADER_FOR_PARTITION for a moment (leaders elected,
   * metadata not yet everywhere): wait until its offsets can be listed, so the first reader or
   * writer (a new customer's first stream) does not fail.
   */
  private async untilLeadersServe(topic: string): Promise<void> {
    const deadline = Date.now() + ENSURE_TOPIC_DEADLINE_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.admin.fetchTopicOffsets(topic);
        return;
      } catch (err) {
        if (Date.now() >= deadline) throw err;
        await new Promise((r) => setTimeout(r, Math.min(50 * attempt, 500)));
      }
    }
  }

  async partitionCount(topic: string): Promise<number> {
    await this.connect();
    const md = await this.admin.fetchTopicMetadata({ topics: [topic] });
    return md.topics[0]?.partitions.length ?? 0;
  }

  /** Per partition: the first kept offset (low) and the next offset to be written (high watermark). */
  async watermarks(topic: string): Promise<{ partition: number; low: number; high: number }[]> {
    await this.connect();
    const offsets = await this.admin.fetchTopicOffsets(topic);
    return offsets.map((o) => ({ partition: o.partition, low: Number(o.low), high: Number(o.high) }));
  }

  /** Per partition: the first offset whose timestamp is at or after `ts` (the high watermark if none). */
  async offsetsAt(topic: string, ts: number): Promise<PartitionOffset[]> {
    await this.connect();
    const offsets = await this.admin.fetchTopicOffsetsByTimestamp(topic, ts);
    return offsets.map((o) => ({ partition: o.partition, offset: Number(o.offset) }));
  }

  /**
   * Commits positions for a group that has no members. Like kafkajs' admin.setOffsets (a paused
   * throwaway member that seeks, commits and leaves) but with a short fetch wait: the admin version
   * waits out a full default long-poll (5 s) on every call.
   */
  async setOffsets(groupId: string, topic: string, positions: PartitionOffset[]): Promise<void> {
    await this.connect();
    if ((await this.memberCount(groupId)) > 0) throw new Error(`cannot set positions of group ${groupId}: it has running members`);
    const consumer = this.kafka.consumer({ groupId, maxWaitTimeInMs: 50, sessionTimeout: 6_000, heartbeatInterval: 1_000, rebalanceTimeout: 6_000 });
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await new Promise<void>((resolve, reject) => {
        // The first fetch comes after the seeks were applied (and, with autoCommit, committed).
        consumer.on(consumer.events.FETCH, () => resolve());
        consumer.run({ eachBatchAutoResolve: false, eachBatch: async () => {} }).catch(reject);
        consumer.pause([{ topic }]);
        for (const p of positions) consumer.seek({ topic, partition: p.partition, offset: String(p.offset) });
      });
    } finally {
      await consumer.disconnect();
    }
  }

  /** The group's committed position per partition (-1 where it has none). */
  async committedOffsets(groupId: string, topic: string): Promise<PartitionOffset[]> {
    await this.connect();
    const res = await this.admin.fetchOffsets({ groupId, topics: [topic] });
    return (res[0]?.partitions ?? []).map((p) => ({ partition: p.partition, offset: Number(p.offset) }));
  }

  /** True when the group has no committed position on any partition of the topic. */
  async hasNoCommits(groupId: string, topic: string): Promise<boolean> {
    await this.connect();
    const res = await this.admin.fetchOffsets({ groupId, topics: [topic] });
    return res.every((t) => t.partitions.every((p) => Number(p.offset) < 0));
  }

  async memberCount(groupId: string): Promise<number> {
    await this.connect();
    const { groups } = await this.admin.describeGroups([groupId]);
    const g = groups[0];
    return g && LIVE_STATES.has(g.state) ? g.members.length : 0;
  }

  /** Deletes a topic; one that is already gone counts as deleted. */
  async deleteTopic(topic: string): Promise<void> {
    await this.connect();
    try {
      await this.admin.deleteTopics({ topics: [topic], timeout: 10_000 });
    } catch (err) {
      if ((err as { type?: string }).type !== 'UNKNOWN_TOPIC_OR_PARTITION') throw err;
    }
  }

  async deleteGroup(groupId: string): Promise<void> {
    await this.connect();
    await this.admin.deleteGroups([groupId]);
  }

  async ping(): Promise<void> {
    await this.connect();
    await this.admin.describeCluster();
  }

  async disconnect(): Promise<void> {
    this.connecting = undefined;
    await this.admin.disconnect();
  }
}
