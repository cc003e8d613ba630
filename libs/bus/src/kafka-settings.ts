/**
 * Settings of the Kafka event log adapter. The composition root fills them from platform settings;
 * the timing knobs exist so tests can make rebalances fast without changing production defaults.
 */
import type { Logger } from '@wellstream/logging';
import type { TopicSpec } from './event-log.port';

export interface KafkaEventLogOptions {
  /** host:port list. */
  brokers: string[];
  clientId: string;
  /** Put in front of every topic name and group id (lets runs share one cluster). */
  prefix?: string;
  logger: Logger;
  /** Replication factor for topics this adapter creates; -1 = the broker's default. */
  replicationFactor?: number;
  /** Extra topic configs per topic (plain name in the spec), e.g. a short segment.ms to observe compaction in tests. */
  topicConfigOverrides?: (spec: TopicSpec) => Record<string, string> | undefined;
  consumer?: Partial<KafkaConsumerTiming>;
  /** Timing of tenant-slice readers (stream clients, replays); defaults to DEFAULT_SLICE_TIMING. */
  sliceConsumer?: Partial<KafkaConsumerTiming>;
}

export interface KafkaConsumerTiming {
  /** Broker-side: a member that sends no heartbeat this long is removed (broker minimum is 6 s). */
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** How long the coordinator waits for members to rejoin during a rebalance. */
  rebalanceTimeoutMs: number;
  /** Long-poll of a fetch; also bounds how late a member notices a rebalance. */
  maxWaitTimeMs: number;
  /** Pause before a failed handler sees the same message again. */
  retryDelayMs: number;
  /** Partitions handled at the same time by one member (order is kept within each). */
  partitionsConsumedConcurrently: number;
}

export const DEFAULT_CONSUMER_TIMING: KafkaConsumerTiming = {
  sessionTimeoutMs: 10_000,
  heartbeatIntervalMs: 1_000,
  rebalanceTimeoutMs: 15_000,
  maxWaitTimeMs: 500,
  retryDelayMs: 500,
  partitionsConsumedConcurrently: 4,
};

/**
 * Readers of tenant slices (one per SSE client) are many and mostly idle. A fetch answers as soon as
 * data arrives whatever its long-poll, so a longer poll costs no latency, only a slower notice of a
 * rebalance; with the heartbeat it cuts an idle reader's requests from three a second to about one
 * every 3 s. The session timeout leaves room for a heartbeat that waits behind a long poll.
 */
export const DEFAULT_SLICE_TIMING: Partial<KafkaConsumerTiming> = {
  maxWaitTimeMs: 3_000,
  heartbeatIntervalMs: 3_000,
  sessionTimeoutMs: 15_000,
};

/** Retries of single client requests; long enough to ride out a broker restart. */
export const CLIENT_RETRY = { initialRetryTime: 300, maxRetryTime: 5_000, retries: 12 };
