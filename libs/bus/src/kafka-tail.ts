/**
 * Group-less reading of a Kafka topic (replay): kafkajs only reads through groups, so each tail
 * gets a throwaway group with a unique id whose positions are set before it joins (the beginning,
 * or the first offset at a timestamp). Nothing is ever committed; the group is deleted on stop.
 * "Caught up" means every partition reached the high watermark captured at the start.
 */
import { randomUUID } from 'node:crypto';
import type { Consumer, Kafka } from 'kafkajs';
import type { Logger } from '@wellstream/logging';
import type { TailOptions } from './event-log.port';
import type { KafkaAdmin } from './kafka-admin';
import { handleInContext } from './handle-in-context';
import { toLogMessage } from './kafka-message';
import { CLIENT_RETRY, KafkaConsumerTiming } from './kafka-settings';
import { TimeSlice } from './time-slice';

export interface TailParams {
  kafka: Kafka;
  admin: KafkaAdmin;
  kafkaTopic: string;
  /** Prefix for the throwaway group id. */
  groupPrefix: string;
  options: TailOptions;
  timing: KafkaConsumerTiming;
  logger: Logger;
}

export class KafkaTailReader {
  private consumer?: Consumer;
  private readonly groupId: string;
  private stopped = false;
  private caughtUp = false;
  /** Partition → the high watermark at start that still has to be reached. */
  private readonly pending = new Map<number, number>();

  constructor(private readonly p: TailParams) {
    this.groupId = `${p.groupPrefix}tail.${randomUUID()}`;
  }

  async start(): Promise<void> {
    const { admin, kafkaTopic, options } = this.p;
    const marks = await admin.watermarks(kafkaTopic);
    const starts =
      options.fromTimestamp === undefined
        ? marks.map((m) => ({ partition: m.partition, offset: m.low }))
        : await admin.offsetsAt(kafkaTopic, options.fromTimestamp);
    for (const m of marks) {
      const start = starts.find((s) => s.partition === m.partition)?.offset ?? m.high;
      if (start < m.high) this.pending.set(m.partition, m.high);
    }
    await admin.setOffsets(this.groupId, kafkaTopic, starts);
    this.checkCaughtUp();

    const consumer = this.p.kafka.consumer({
      groupId: this.groupId,
      sessionTimeout: this.p.timing.sessionTimeoutMs,
      heartbeatInterval: this.p.timing.heartbeatIntervalMs,
      rebalanceTimeout: this.p.timing.rebalanceTimeoutMs,
      maxWaitTimeInMs: this.p.timing.maxWaitTimeMs,
      // kafkajs decodes a whole fetch response at once, outside our slices: keep each one small.
      maxBytesPerPartition: 256 * 1024,
      maxBytes: 1024 * 1024,
      allowAutoTopicCreation: false,
      retry: { ...CLIENT_RETRY, restartOnFailure: async () => true },
    });
    this.consumer = consumer;
    await consumer.connect();
    await consumer.subscribe({ topic: kafkaTopic, fromBeginning: true });
    // A replay reads a whole history in big fetches: let other customers' work in between.
    const slice = new TimeSlice({ givesWay: true });
    await consumer.run({
      autoCommit: false,
      eachMessage: async ({ partition, message }) => {
        // Once every partition reached its start-time high watermark, what follows is live.
        slice.live = this.caughtUp;
        await slice.pause();
        if (this.stopped) return;
        const m = toLogMessage(options.topic, partition, message);
        try {
          await handleInContext(options.handle, m);
        } catch (err) {
          // Like the embedded reader: a failing handler ends this tail (the caller's reader is broken).
          this.p.logger.warn('tail reader stopped on a handler error', { topic: options.topic, error: err });
          void this.stop();
          return;
        }
        const target = this.pending.get(partition);
        if (target !== undefined && m.offset + 1 >= target) {
          this.pending.delete(partition);
          this.checkCaughtUp();
        }
      },
    });
  }

  private checkCaughtUp(): void {
    if (this.caughtUp || this.pending.size > 0 || this.stopped) return;
    this.caughtUp = true;
    this.p.options.onCaughtUp?.();
  }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.consumer?.disconnect().catch(() => {});
    await this.p.admin.deleteGroup(this.groupId).catch((err) => this.p.logger.debug('could not delete a tail group', { error: err }));
  }
}
