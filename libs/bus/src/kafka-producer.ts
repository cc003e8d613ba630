/**
 * The publishing side of the Kafka event log: one idempotent producer (acks from all in-sync
 * replicas, one request in flight, so retries neither duplicate nor reorder), and a bounded outer
 * retry so a publish survives a broker restart instead of failing the request that caused it.
 */
import { CompressionTypes, Kafka, Producer } from 'kafkajs';
import type { Logger } from '@wellstream/logging';
import { currentRequestId } from '@wellstream/logging';
import type { OutgoingMessage } from './event-log.port';
import { partitionKeyPartitioner, sleep, toKafkaMessage } from './kafka-message';
import { CLIENT_RETRY } from './kafka-settings';

const PUBLISH_DEADLINE_MS = 60_000;

export interface TopicBatch {
  /** The topic's name on the broker (prefixed). */
  topic: string;
  messages: OutgoingMessage[];
}

export class KafkaPublisher {
  private readonly producer: Producer;
  private connecting?: Promise<void>;

  constructor(
    kafka: Kafka,
    private readonly logger: Logger,
  ) {
    this.producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
      createPartitioner: partitionKeyPartitioner,
      retry: CLIENT_RETRY,
    });
  }

  private connect(): Promise<void> {
    this.connecting ??= this.producer.connect().catch((err) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }

  /**
   * Publishes to one or more topics in one request per broker. `prepare` runs before every
   * attempt (e.g. making sure a tenant's topic exists; told whether an attempt already failed).
   */
  async publish(batches: TopicBatch[], prepare?: (retry: boolean) => Promise<void>): Promise<void> {
    const requestId = currentRequestId();
    const topicMessages = batches.map((b) => ({ topic: b.topic, messages: b.messages.map((m) => toKafkaMessage(m, requestId)) }));
    const deadline = Date.now() + PUBLISH_DEADLINE_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        await prepare?.(attempt > 1);
        await this.connect();
        await this.producer.sendBatch({ topicMessages, acks: -1, compression: CompressionTypes.None });
        return;
      } catch (err) {
        if (Date.now() >= deadline) throw err;
        this.logger.warn('kafka publish failed; retrying', { topics: batches.map((b) => b.topic), attempt, error: err });
        await sleep(Math.min(1000 * attempt, 5000));
      }
    }
  }

  async disconnect(): Promise<void> {
    this.connecting = undefined;
    await this.producer.disconnect();
  }
}
