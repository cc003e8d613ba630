/**
 * The embedded event log: Kafka's model (partitioned topics, consumer groups, committed positions,
 * compaction, retention) on one SQLite file, for `npm start` and single-process use.
 */
import { EventEmitter } from 'node:events';
import type { Logger } from '@wellstream/logging';
import { currentRequestId } from '@wellstream/logging';
import type { ConsumeOptions, EventLog, OutgoingMessage, Subscription, TailOptions, TopicSpec } from './event-log.port';
import { REQUEST_ID_HEADER } from './event-log.port';
import { EmbeddedLogStorage } from './embedded-log-storage';
import { EmbeddedConsumerGroup, EmbeddedMember, handleInContext, waitFor } from './embedded-consumer-group';

export interface EmbeddedEventLogOptions {
  file: string;
  logger: Logger;
  /** How often compaction and retention run. */
  cleanIntervalMs?: number;
}

export class EmbeddedEventLog implements EventLog {
  private readonly storage: EmbeddedLogStorage;
  private readonly notifier = new EventEmitter();
  private readonly groups = new Map<string, EmbeddedConsumerGroup>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly cleaner: NodeJS.Timeout;
  private nextMemberId = 1;
  private closed = false;

  constructor(private readonly options: EmbeddedEventLogOptions) {
    this.storage = new EmbeddedLogStorage(options.file);
    this.notifier.setMaxListeners(0);
    this.cleaner = setInterval(() => this.clean(), options.cleanIntervalMs ?? 60_000);
    this.cleaner.unref();
  }

  async ensureTopic(spec: TopicSpec): Promise<void> {
    this.storage.ensureTopic(spec);
  }

  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const requestId = currentRequestId();
    const withHeaders = requestId
      ? messages.map((m) => ({ ...m, headers: { [REQUEST_ID_HEADER]: requestId, ...m.headers } }))
      : messages;
    // Wake only the readers of partitions that got messages: each wake-up costs a read.
    for (const p of this.storage.append(topic, withHeaders)) this.notifier.emit(`${topic}/${p}`);
    this.notifier.emit(topic);
  }

  async consume(options: ConsumeOptions): Promise<Subscription> {
    this.storage.topic(options.topic);
    const key = `${options.groupId}\u0000${options.topic}`;
    let group = this.groups.get(key);
    if (!group) {
      group = new EmbeddedConsumerGroup(this.storage, this.notifier, options.groupId, options.topic, this.options.logger);
      this.groups.set(key, group);
    }
    const member = new EmbeddedMember(this.nextMemberId++, options);
    await group.join(member);
    const g = group;
    let stopping: Promise<void> | undefined;
    const sub: Subscription = {
      stop: () => {
        stopping ??= g.leave(member).then(() => {
          this.subscriptions.delete(sub);
        });
        return stopping;
      },
    };
    this.subscriptions.add(sub);
    return sub;
  }

  async tail(options: TailOptions): Promise<Subscription> {
    this.storage.topic(options.topic);
    let seq = options.fromTimestamp === undefined ? 0 : this.storage.seqBefore(options.topic, options.fromTimestamp);
    const endAtStart = this.storage.maxSeq(options.topic);
    let caughtUp = false;
    let stopped = false;
    let wake = () => {};
    const reportCaughtUp = () => {
      if (!caughtUp) {
        caughtUp = true;
        options.onCaughtUp?.();
      }
    };
    const run = async () => {
      if (seq >= endAtStart) reportCaughtUp();
      while (!stopped) {
        const batch = this.storage.readAfterSeq(options.topic, seq, 500);
        if (batch.length === 0) {
          reportCaughtUp();
          const w = waitFor(this.notifier, options.topic, 1000);
          wake = w.cancel;
          await w.promise;
          continue;
        }
        for (const m of batch) {
          if (stopped) return;
          await handleInContext(options.handle, m);
          seq = m.seq;
          if (seq >= endAtStart) reportCaughtUp();
        }
      }
    };
    const done = run().catch((err) => {
      this.options.logger.warn('tail reader stopped on a handler error', { topic: options.topic, error: err });
    });
    const sub: Subscription = {
      stop: async () => {
        stopped = true;
        wake();
        await done;
        this.subscriptions.delete(sub);
      },
    };
    this.subscriptions.add(sub);
    return sub;
  }

  async startGroupAtEnd(groupId: string, topic: string): Promise<void> {
    const { partitions } = this.storage.topic(topic);
    for (let p = 0; p < partitions; p++) this.storage.commit(groupId, topic, p, this.storage.endOffset(topic, p));
  }

  async groupMemberCount(groupId: string): Promise<number> {
    let n = 0;
    for (const g of this.groups.values()) if (g.groupId === groupId) n += g.size;
    return n;
  }

  async healthy(): Promise<boolean> {
    return !this.closed;
  }

  /** Runs compaction and retention now (also runs on a timer). */
  clean(): number {
    return this.closed ? 0 : this.storage.clean();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    this.closed = true;
    clearInterval(this.cleaner);
    this.storage.close();
  }
}
