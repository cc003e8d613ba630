/**
 * The publishing side of the Kafka event log: one idempotent producer (acks from all in-sync
 * replicas, one request in flight, so retries neither duplicate nor reorder), and a bounded outer
 * retry so a publish survives a broker restart instead of failing the request that caused it.
 *
 * Publishes go out one after the other, each retried to its end before the next starts. kafkajs
 * numbers an idempotent producer's batches per partition and, when a request fails, hands its
 * numbers back to the next request. If the broker had in fact appended the failed batch (it was
 * killed before it answered), a different batch sent next under the same numbers is taken for a
 * resend of it: acknowledged, and never written. The sse-scale bench lost one batch that way
 * across a broker kill while publishes queued. Retrying the same batch first makes a resend a
 * true resend; a batch that fails for good, or a producer the broker no longer knows, gets a
 * fresh producer (new id, new numbers) before anything else is sent.
 */
import { CompressionTypes, Kafka, Producer } from 'kafkajs';
import type { Logger } from '@wellstream/logging';
import { currentRequestId } from '@wellstream/logging';
import type { OutgoingMessage } from './event-log.port';
import { partitionKeyPartitioner, sleep, toKafkaMessage } from './kafka-message';
import { CLIENT_RETRY } from './kafka-settings';

const PUBLISH_DEADLINE_MS = 60_000;
/** Answers after which the producer's numbering no longer matches the broker's: start a new producer. */
const PRODUCER_STATE_ERRORS = new Set(['OUT_OF_ORDER_SEQUENCE_NUMBER', 'DUPLICATE_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH', 'INVALID_PRODUCER_ID_MAPPING']);

export interface TopicBatch {
  /** The topic's name on the broker (prefixed). */
  topic: string;
  messages: OutgoingMessage[];
}

export class KafkaPublisher {
  private producer: Producer;
  private connecting?: Promise<void>;
  /** The publish being sent (and retried); the next one waits for it. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly kafka: Kafka,
    private readonly logger: Logger,
    private readonly deadlineMs = PUBLISH_DEADLINE_MS,
  ) {
    this.producer = this.newProducer();
  }

  private newProducer(): Producer {
    return this.kafka.producer({
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

  /** Drops the producer whose numbering can no longer be trusted; the next attempt connects a new one. */
  private async replaceProducer(): Promise<void> {
    const old = this.producer;
    this.producer = this.newProducer();
    this.connecting = undefined;
    await old.disconnect().catch(() => {});
  }

  /**
   * Publishes to one or more topics in one request per broker, after every publish asked for
   * before it. `prepare` runs before every attempt (e.g. making sure a tenant's topic exists; told
   * whether an attempt already failed).
   */
  publish(batches: TopicBatch[], prepare?: (retry: boolean) => Promise<void>): Promise<void> {
    const requestId = currentRequestId();
    const mine = this.turn.then(() => this.send(batches, requestId, prepare));
    this.turn = mine.catch(() => {});
    return mine;
  }

  private async send(batches: TopicBatch[], requestId: string | undefined, prepare?: (retry: boolean) => Promise<void>): Promise<void> {
    const topicMessages = batches.map((b) => ({ topic: b.topic, messages: b.messages.map((m) => toKafkaMessage(m, requestId)) }));
    const deadline = Date.now() + this.deadlineMs;
    for (let attempt = 1; ; attempt++) {
      try {
        await prepare?.(attempt > 1);
        await this.connect();
        await this.producer.sendBatch({ topicMessages, acks: -1, compression: CompressionTypes.None });
        return;
      } catch (err) {
        const stateLost = PRODUCER_STATE_ERRORS.has((err as { type?: string })?.type ?? '');
        if (stateLost || Date.now() >= deadline) await this.replaceProducer();
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
