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

  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    const requestId = currentRequestId();
    const kafkaMessages = messages.map((m) => toKafkaMessage(m, requestId));
    const deadline = Date.now() + PUBLISH_DEADLINE_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.connect();
        await this.producer.send({ topic, acks: -1, compression: CompressionTypes.None, messages: kafkaMessages });
        return;
      } catch (err) {
        if (Date.now() >= deadline) throw err;
        this.logger.warn('kafka publish failed; retrying', { topic, attempt, error: err });
        await sleep(Math.min(1000 * attempt, 5000));
      }
    }
  }

  async disconnect(): Promise<void> {
    this.connecting = undefined;
    await this.producer.disconnect();
  }
}
