/**
 * The embedded event log: Kafka's model (partitioned topics, consumer groups, committed positions,
 * compaction, retention, tenant slices) on one SQLite file, for `npm start` and single-process use.
 * Every loop that can run long (a tail catching up, clean-up, tenant moves) yields to the event
 * loop between bounded slices, so one reader never holds the process for the others.
 */
import { EventEmitter } from 'node:events';
import type { Logger } from '@wellstream/logging';
import { currentRequestId } from '@wellstream/logging';
import type { ConsumeOptions, EraseSelector, EventLog, GroupPosition, GroupSubscription, OutgoingMessage, Subscription, TailOptions, TopicSpec } from './event-log.port';
import { REQUEST_ID_HEADER } from './event-log.port';
import { backgroundZlib } from './background-zlib';
import { handleInContext } from './handle-in-context';
import { EmbeddedLogStorage } from './embedded-log-storage';
import { partitionFor } from './partitioner';
import {
  EmbeddedConsumerGroup,
  EmbeddedMember,
  IDLE_RECHECK_MS,
  partitionWakeEvent,
  topicWakeEvent,
  waitFor,
} from './embedded-consumer-group';
import { TimeSlice, yieldToEventLoop } from './time-slice';

export interface EmbeddedEventLogOptions {
  file: string;
  logger: Logger;
  /** How often compaction and retention run. */
  cleanIntervalMs?: number;
}

const TAIL_BATCH = 100;

export class EmbeddedEventLog implements EventLog {
  private readonly storage: EmbeddedLogStorage;
  private readonly notifier = new EventEmitter();
  private readonly groups = new Map<string, EmbeddedConsumerGroup>();
  private readonly subscriptions = new Set<Subscription>();
  private readonly cleaner: NodeJS.Timeout;
  private cleaning?: Promise<number>;
  private nextMemberId = 1;
  private closed = false;
  /** The last append under way: appends happen in the order of the publishes, whenever deflating ends. */
  private appending: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: EmbeddedEventLogOptions) {
    this.storage = new EmbeddedLogStorage(options.file);
    this.notifier.setMaxListeners(0);
    this.cleaner = setInterval(() => void this.clean(), options.cleanIntervalMs ?? 60_000);
    this.cleaner.unref();
  }

  async ensureTopic(spec: TopicSpec): Promise<void> {
    this.storage.ensureTopic(spec);
    // A log written before the topic had tenant slices: move its messages into them once.
    if (spec.tenants) await this.migrateTenants(spec.name);
  }

  async publish(topic: string, messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const requestId = currentRequestId();
    const withHeaders = requestId
      ? messages.map((m) => ({ ...m, headers: { [REQUEST_ID_HEADER]: requestId, ...m.headers } }))
      : messages;
    // Deflated off the event loop while earlier publishes finish; appended after them, in call order.
    const packed = backgroundZlib.pack(withHeaders.map((m) => m.value));
    const appended = this.appending.then(async () => this.storage.append(topic, withHeaders, await packed));
    this.appending = appended.catch(() => undefined);
    // Wake only the readers of partitions (and tenant slices) that got messages: each wake-up costs a read.
    const tenants = new Set<string>();
    for (const { partition, tenant } of await appended) {
      this.notifier.emit(partitionWakeEvent(topic, partition));
      if (tenant !== undefined) {
        this.notifier.emit(partitionWakeEvent(topic, partition, tenant));
        tenants.add(tenant);
      }
    }
    this.notifier.emit(topicWakeEvent(topic));
    for (const t of tenants) this.notifier.emit(topicWakeEvent(topic, t));
  }

  async consume(options: ConsumeOptions): Promise<GroupSubscription> {
    this.checkSlice(options.topic, options.tenant);
    const key = EmbeddedConsumerGroup.key(options.groupId, options.topic, options.tenant);
    let group = this.groups.get(key);
    if (!group) {
      group = new EmbeddedConsumerGroup(this.storage, this.notifier, options.groupId, options.topic, this.options.logger);
      this.groups.set(key, group);
    }
    const member = new EmbeddedMember(this.nextMemberId++, options);
    await group.join(member);
    const g = group;
    let stopping: Promise<void> | undefined;
    const sub: GroupSubscription = {
      rewind: (partition, offset) => member.rewind(partition, offset),
      stop: () => {
        stopping ??= g.leave(member).then(() => {
          this.subscriptions.delete(sub);
          // An empty group holds nothing worth keeping: its positions are in storage.
          if (g.size === 0 && this.groups.get(key) === g) this.groups.delete(key);
        });
        return stopping;
      },
    };
    this.subscriptions.add(sub);
    return sub;
  }

  async tail(options: TailOptions): Promise<Subscription> {
    const { topic, tenant } = options;
    this.checkSlice(topic, tenant);
    let seq = options.fromTimestamp === undefined ? 0 : this.storage.seqBefore(topic, options.fromTimestamp, tenant);
    const endAtStart = this.storage.maxSeq(topic, tenant);
    let caughtUp = false;
    let stopped = false;
    let wake = () => {};
    const reportCaughtUp = () => {
      if (!caughtUp) {
        caughtUp = true;
        options.onCaughtUp?.();
      }
    };
    const slice = new TimeSlice({ givesWay: true });
    const run = async () => {
      if (seq >= endAtStart) reportCaughtUp();
      while (!stopped) {
        const changes = this.storage.changes;
        const batch = await this.storage.readAfterSeq(topic, seq, TAIL_BATCH, tenant);
        // A stop during the read found nothing to wake: it must not find this reader asleep after.
        if (stopped) return;
        // Past the history it was asked for and reading short batches: live traffic.
        slice.live = caughtUp && batch.length < TAIL_BATCH;
        if (batch.length === 0) {
          reportCaughtUp();
          // Something was appended while the read resolved: its wake-up came before this wait.
          if (this.storage.changes !== changes) continue;
          const w = waitFor(this.notifier, topicWakeEvent(topic, tenant), IDLE_RECHECK_MS);
          wake = w.cancel;
          await w.promise;
          continue;
        }
        for (const m of batch) {
          await slice.pause();
          if (stopped) return;
          await handleInContext(options.handle, m);
          seq = m.seq;
          if (seq >= endAtStart) reportCaughtUp();
        }
      }
    };
    const done = run().catch((err) => {
      this.options.logger.warn('tail reader stopped on a handler error', { topic, error: err });
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

  /** Slices share the topic's partitions and offsets, so the topic's end is the slice's end too. */
  async startGroupAtEnd(groupId: string, topic: string, tenant?: string): Promise<void> {
    this.checkSlice(topic, tenant);
    const { partitions } = this.storage.topic(topic);
    for (let p = 0; p < partitions; p++) this.storage.commit(groupId, topic, p, this.storage.endOffset(topic, p));
  }

  /** A slice is an index range: nothing to create. */
  async ensureTenant(topic: string, tenant: string): Promise<void> {
    this.checkSlice(topic, tenant);
  }

  /** One row per message (a slice is an index range over the same rows), so the topic's partition is all there is to read. */
  async eraseMessages(topic: string, selector: EraseSelector): Promise<number> {
    const { partitions } = this.storage.topic(topic);
    const partition = partitionFor(selector.partitionKey, partitions);
    let erased = 0;
    for (let after = -1; !this.closed; ) {
      const chunk = this.storage.eraseChunk(topic, partition, after, selector.matches);
      erased += chunk.erased;
      if (chunk.next === undefined) break;
      after = chunk.next;
      await yieldToEventLoop();
    }
    return erased;
  }

  async dropTenant(topic: string, tenant: string): Promise<void> {
    this.checkSlice(topic, tenant);
    while (!this.closed && this.storage.dropTenantChunk(topic, tenant) > 0) await yieldToEventLoop();
  }

  async migrateTenants(topic: string): Promise<number> {
    let moved = 0;
    for (let n; !this.closed && (n = this.storage.migrateTenantChunk(topic)) > 0; ) {
      moved += n;
      await yieldToEventLoop();
    }
    if (moved > 0) this.options.logger.info('moved messages into their tenant slices', { topic, count: moved });
    return moved;
  }

  /** A group commits after each batch it handled (embedded-consumer-group.ts), so this is exact. */
  async groupPositions(groupId: string, topic: string): Promise<GroupPosition[]> {
    const { partitions } = this.storage.topic(topic);
    const positions: GroupPosition[] = [];
    for (let p = 0; p < partitions; p++) {
      const end = this.storage.endOffset(topic, p);
      positions.push({ partition: p, handled: this.storage.committed(groupId, topic, p) ?? this.storage.firstOffset(topic, p), end });
    }
    return positions;
  }

  async groupMemberCount(groupId: string): Promise<number> {
    let n = 0;
    for (const g of this.groups.values()) if (g.groupId === groupId) n += g.size;
    return n;
  }

  async healthy(): Promise<boolean> {
    return !this.closed;
  }

  /** Runs compaction and retention now, in chunks (also runs on a timer); resolves to how many went. */
  clean(now = Date.now()): Promise<number> {
    this.cleaning ??= (async () => {
      let removed = 0;
      try {
        for (const topic of this.storage.topicNames()) {
          for (let more = true; more && !this.closed; ) {
            const r = this.storage.cleanChunk(topic, now);
            removed += r.removed;
            more = r.more;
            await yieldToEventLoop();
          }
        }
      } catch (err) {
        if (!this.closed) this.options.logger.warn('event log clean-up failed; will retry', { error: err });
      } finally {
        this.cleaning = undefined;
      }
      return removed;
    })();
    return this.cleaning;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.cleaning;
    await this.appending;
    this.closed = true;
    clearInterval(this.cleaner);
    await this.storage.close();
  }

  private checkSlice(topic: string, tenant: string | undefined): void {
    const spec = this.storage.topic(topic);
    if (tenant !== undefined && !spec.tenants) throw new Error(`topic ${topic} has no tenant slices`);
  }
}
