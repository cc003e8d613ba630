/**
 * Consumer groups for the embedded log, in one process: members share a topic's partitions
 * (round-robin in join order), rebalance when members come and go, and each partition is read by
 * one member at a time from the group's committed position.
 */
import { EventEmitter } from 'node:events';
import type { Logger } from '@wellstream/logging';
import { ConsumeOptions, rewindApplies } from './event-log.port';
import type { EmbeddedLogStorage } from './embedded-log-storage';
import { handleInContext } from './handle-in-context';
import { SharedLookups } from './read-batch';
import { GROUP_MEMBER_LIGHT_UNITS, TimeSlice } from './time-slice';

const BATCH = 100;
const RETRY_PAUSE_MS = 500;
/**
 * Publishes in this process wake readers at once; the timer is only a safety net, so an idle
 * reader costs one timer per minute, not a query per second.
 */
export const IDLE_RECHECK_MS = 60_000;

/** The notifier event that wakes readers of a partition (of a tenant's slice, when given). */
export const partitionWakeEvent = (topic: string, partition: number, tenant?: string) =>
  tenant === undefined ? `${topic}/${partition}` : `${topic}/${tenant}/${partition}`;

/** The notifier event that wakes readers of a whole topic (or of a tenant's slice). */
export const topicWakeEvent = (topic: string, tenant?: string) => (tenant === undefined ? topic : `${topic}/${tenant}`);

/** Waits until `emitter` fires `event` or `ms` pass; returns a canceller too. */
export function waitFor(emitter: EventEmitter, event: string, ms: number): { promise: Promise<void>; cancel: () => void } {
  let cancel = () => {};
  const promise = new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      emitter.off(event, done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    emitter.on(event, done);
    cancel = done;
  });
  return { promise, cancel };
}

class PartitionWorker {
  private stopped = false;
  private wake = () => {};
  /** Asked for by rewind(); applied between messages. */
  private rewindTo?: number;
  /** Where reading goes on: after the last message handled, or where a rewind moved it. */
  private offset = 0;
  readonly done: Promise<void>;

  constructor(
    private readonly storage: EmbeddedLogStorage,
    private readonly notifier: EventEmitter,
    private readonly groupId: string,
    private readonly partition: number,
    private readonly options: ConsumeOptions,
    private readonly logger: Logger,
  ) {
    this.done = this.run();
  }

  stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    return this.done;
  }

  /** Reads again from `offset` (GroupSubscription.rewind), at the next message boundary; false when that does not apply. */
  rewind(offset: number): boolean {
    if (!rewindApplies(this.offset, offset)) return false;
    this.rewindTo = Math.min(offset, this.rewindTo ?? Infinity);
    this.wake();
    return true;
  }

  private startOffset(): number {
    const { topic } = this.options;
    const committed = this.storage.committed(this.groupId, topic, this.partition);
    if (committed !== undefined) return committed;
    const start = this.options.fromBeginning ? 0 : this.storage.endOffset(topic, this.partition);
    // Pin the starting point so a rebalance or restart does not skip what arrives meanwhile.
    this.storage.commit(this.groupId, topic, this.partition, start);
    return start;
  }

  /**
   * Applies a rewind asked for: only back, and not too far (a rewind never skips anything). The
   * position is committed at once, so it holds should this member stop before reading there.
   */
  private applyRewind(): void {
    const to = this.rewindTo;
    this.rewindTo = undefined;
    if (to === undefined || !rewindApplies(this.offset, to)) return;
    this.storage.commit(this.groupId, this.options.topic, this.partition, (this.offset = to));
  }

  private async run(): Promise<void> {
    this.offset = this.startOffset();
    try {
      await this.read();
    } finally {
      // A rewind asked for just before a stop still counts for the next owner.
      this.applyRewind();
    }
  }

  private async read(): Promise<void> {
    const { topic, tenant } = this.options;
    // Light members never rest (time-slice.ts), as on Kafka (kafka-consumer.ts).
    const slice = new TimeSlice({ lightUnitsPerSecond: GROUP_MEMBER_LIGHT_UNITS });
    while (!this.stopped) {
      this.applyRewind();
      const changes = this.storage.changes;
      const batch = await this.storage.readPartition(topic, this.partition, this.offset, BATCH, tenant);
      // A stop during the read found nothing to wake: it must not find this worker asleep after.
      if (this.stopped) return;
      // A short read reached the end of the partition: what follows is live traffic.
      slice.live = batch.length < BATCH;
      if (batch.length === 0) {
        // Something was appended while the read resolved: its wake-up came before this wait.
        if (this.storage.changes !== changes) continue;
        const w = waitFor(this.notifier, partitionWakeEvent(topic, this.partition, tenant), IDLE_RECHECK_MS);
        this.wake = w.cancel;
        await w.promise;
        continue;
      }
      // The position is committed once per batch (and before stopping or waiting on a failure),
      // not per message: one write instead of up to BATCH. A crash re-delivers at most the batch's
      // handled part, which at-least-once consumers take in their stride.
      let committed = this.offset;
      const commit = () => {
        if (this.offset !== committed) this.storage.commit(this.groupId, topic, this.partition, (committed = this.offset));
      };
      const lookups = new SharedLookups();
      try {
        for (const m of batch) {
          await slice.pause();
          if (this.stopped) return;
          if (this.rewindTo !== undefined) break;
          for (;;) {
            try {
              await handleInContext(this.options.handle, m, lookups);
              break;
            } catch (err) {
              commit();
              if (this.stopped) return; // not committed: the next owner gets it again
              this.logger.warn('event handler failed; retrying', { topic, group: this.groupId, partition: this.partition, offset: m.offset, error: err });
              const w = waitFor(this.notifier, '__never__', RETRY_PAUSE_MS);
              this.wake = w.cancel;
              await w.promise;
              if (this.stopped) return;
            }
          }
          this.offset = m.offset + 1;
        }
      } finally {
        commit();
      }
    }
  }
}

export class EmbeddedMember {
  readonly workers = new Map<number, PartitionWorker>();
  constructor(
    readonly id: number,
    readonly options: ConsumeOptions,
  ) {}

  /** GroupSubscription.rewind: only a partition this member holds. */
  rewind(partition: number, offset: number): boolean {
    return this.workers.get(partition)?.rewind(offset) ?? false;
  }
}

export class EmbeddedConsumerGroup {
  private readonly members: EmbeddedMember[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly storage: EmbeddedLogStorage,
    private readonly notifier: EventEmitter,
    readonly groupId: string,
    readonly topic: string,
    private readonly logger: Logger,
  ) {}

  /** Groups are told apart by id, topic and tenant slice. */
  static key(groupId: string, topic: string, tenant?: string): string {
    return `${groupId}\u0000${topic}\u0000${tenant ?? ''}`;
  }

  get size(): number {
    return this.members.length;
  }

  join(member: EmbeddedMember): Promise<void> {
    this.members.push(member);
    return this.rebalance();
  }

  leave(member: EmbeddedMember): Promise<void> {
    const i = this.members.indexOf(member);
    if (i >= 0) this.members.splice(i, 1);
    return this.rebalance(member);
  }

  /** Rebalances run one at a time; every revoked partition stops before any is handed out again. */
  private rebalance(leaving?: EmbeddedMember): Promise<void> {
    this.queue = this.queue.then(async () => {
      const partitions = this.storage.topic(this.topic).partitions;
      const owner = new Map<number, EmbeddedMember>();
      if (this.members.length > 0) {
        for (let p = 0; p < partitions; p++) owner.set(p, this.members[p % this.members.length]);
      }
      const stopping: Promise<void>[] = [];
      for (const m of leaving ? [...this.members, leaving] : this.members) {
        for (const [p, w] of m.workers) {
          if (owner.get(p) !== m) {
            m.workers.delete(p);
            stopping.push(w.stop());
          }
        }
      }
      await Promise.all(stopping);
      for (const m of this.members) {
        const mine: number[] = [];
        for (const [p, o] of owner) {
          if (o !== m) continue;
          mine.push(p);
          if (!m.workers.has(p)) {
            m.workers.set(p, new PartitionWorker(this.storage, this.notifier, this.groupId, p, m.options, this.logger));
          }
        }
        m.options.onAssignment?.(mine);
      }
    });
    return this.queue;
  }
}
