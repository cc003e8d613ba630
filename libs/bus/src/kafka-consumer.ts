/**
 * One member of a Kafka consumer group, with the port's delivery rules: a position is committed
 * only after the handler resolved; a handler error seeks the partition back to the failed message
 * and pauses it for a moment (never skipping it); stop() lets in-flight handlers finish, commits
 * them, then leaves the group (the others rebalance). A consumer that kafkajs gives up on is
 * recreated here, so a broker outage longer than its retries does not end consumption.
 */
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import type { Logger } from '@wellstream/logging';
import { ConsumeOptions, rewindApplies } from './event-log.port';
import { handleInContext } from './handle-in-context';
import { sleep, toLogMessage } from './kafka-message';
import { ReadBatch, SharedLookups } from './read-batch';
import { CLIENT_RETRY, KafkaConsumerTiming } from './kafka-settings';
import type { PartitionOffset } from './kafka-admin';
import { GROUP_MEMBER_LIGHT_UNITS, TimeSlice } from './time-slice';

const JOIN_WAIT_MS = 30_000;
/**
 * A message appended this recently is live traffic, not history: the member is at the end of its
 * log, so its slice yields but never rests on the long reads' budget (time-slice.ts). kafkajs's
 * per-message handler does not see the partition's end, so the append time stands for it.
 */
const LIVE_WITHIN_MS = 1_000;
const RESTART_DELAY_MS = 1_000;

export interface GroupMemberParams {
  kafka: Kafka;
  /** Prefixed names, as on the broker. */
  kafkaTopic: string;
  kafkaGroupId: string;
  options: ConsumeOptions;
  timing: KafkaConsumerTiming;
  logger: Logger;
  /** The group's committed positions on the topic (-1 where none): where a member that has read nothing of a partition starts. */
  committedOffsets?: () => Promise<PartitionOffset[]>;
}

export class KafkaGroupMember {
  private consumer?: Consumer;
  private stopping = false;
  private restarting = false;
  private readonly inFlight = new Set<Promise<void>>();
  /** kafkajs hands over a fetched batch message by message without yielding: share the loop. */
  private readonly slice = new TimeSlice({ lightUnitsPerSecond: GROUP_MEMBER_LIGHT_UNITS });
  private joined = false;
  private onJoined = () => {};
  /** Handled positions not committed yet (commitEveryMs), per partition of the current consumer. */
  private pending = new Map<number, string>();
  private commitTimer?: NodeJS.Timeout;
  /** Per partition held, the offset after the last message handled (where reading goes on). */
  private readonly position = new Map<number, number>();
  /** Rewinds asked for before this member had handled anything of the partition. */
  private readonly rewinds = new Map<number, number>();
  /** Per partition, how many times it was sought back (a handler may rewind its own partition). */
  private readonly seeks = new Map<number, number>();
  /** Partitions of the current assignment, and which assignment it is (a rewind resolved late must not act on a later one). */
  private held = new Set<number>();
  private generation = 0;
  private resolvingRewinds = false;

  constructor(private readonly p: GroupMemberParams) {}

  /** Resolves once this member has joined the group and received its partitions. */
  async start(): Promise<void> {
    const joined = new Promise<void>((resolve) => {
      this.onJoined = resolve;
    });
    await this.startConsumer();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([joined, new Promise<void>((resolve) => (timer = setTimeout(resolve, JOIN_WAIT_MS)))]);
    clearTimeout(timer);
    if (!this.joined) this.p.logger.warn('kafka consumer has not joined its group yet; continuing', { group: this.p.kafkaGroupId });
  }

  private async startConsumer(): Promise<void> {
    const { kafka, kafkaTopic, kafkaGroupId, options, timing } = this.p;
    const consumer = kafka.consumer({
      groupId: kafkaGroupId,
      sessionTimeout: timing.sessionTimeoutMs,
      heartbeatInterval: timing.heartbeatIntervalMs,
      rebalanceTimeout: timing.rebalanceTimeoutMs,
      maxWaitTimeInMs: timing.maxWaitTimeMs,
      allowAutoTopicCreation: false,
      retry: { ...CLIENT_RETRY, restartOnFailure: async () => true },
    });
    this.consumer = consumer;
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      const mine = e.payload.memberAssignment[kafkaTopic] ?? [];
      // Positions and rewinds are of the partitions held before: they may be someone else's now.
      this.position.clear();
      this.rewinds.clear();
      this.held = new Set(mine);
      this.generation++;
      this.joined = true;
      options.onAssignment?.([...mine].sort((a, b) => a - b));
      this.onJoined();
    });
    consumer.on(consumer.events.CRASH, (e) => {
      this.p.logger.warn('kafka consumer crashed', { group: kafkaGroupId, restart: e.payload.restart, error: e.payload.error });
      if (!e.payload.restart) void this.restart(consumer);
    });
    await consumer.connect();
    await consumer.subscribe({ topic: kafkaTopic, fromBeginning: options.fromBeginning ?? false });
    await consumer.run({
      autoCommit: false,
      // Offsets are resolved message by message below: a batch left early (a stop, a failed
      // handler) must not count its unhandled messages as read.
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: timing.partitionsConsumedConcurrently,
      eachBatch: (payload) => this.track(this.onBatch(consumer, payload)),
    });
  }

  /** kafkajs did not restart it (a non-retriable error): start a fresh consumer after a pause. */
  private async restart(crashed: Consumer): Promise<void> {
    if (this.stopping || this.restarting || crashed !== this.consumer) return;
    this.restarting = true;
    try {
      await crashed.disconnect().catch(() => {});
      for (let attempt = 1; !this.stopping; attempt++) {
        await sleep(Math.min(RESTART_DELAY_MS * attempt, 10_000));
        if (this.stopping) return;
        try {
          await this.startConsumer();
          return;
        } catch (err) {
          this.p.logger.warn('kafka consumer restart failed; retrying', { group: this.p.kafkaGroupId, attempt, error: err });
          await this.consumer?.disconnect().catch(() => {});
        }
      }
    } finally {
      this.restarting = false;
    }
  }

  /**
   * GroupSubscription.rewind. With a position known (something of the partition handled), seeks
   * back at once. Otherwise the member starts where the group committed: that is asked of the
   * broker (one request for all rewinds waiting), so a quiet partition is read again now rather
   * than at its next message; should the answer not come, the first message of the partition
   * decides. Rewinds are only ever backwards, and at most MAX_REWIND (rewindApplies).
   */
  rewind(partition: number, offset: number): boolean {
    const at = this.position.get(partition);
    if (at === undefined) {
      if (!this.held.has(partition)) return false;
      this.rewinds.set(partition, Math.min(offset, this.rewinds.get(partition) ?? Infinity));
      void this.resolveRewinds();
      return false;
    }
    return this.seekBack(partition, at, offset);
  }

  /** Applies waiting rewinds against the group's committed positions (where this member starts). */
  private async resolveRewinds(): Promise<void> {
    if (this.resolvingRewinds || !this.p.committedOffsets) return;
    this.resolvingRewinds = true;
    const generation = this.generation;
    try {
      const committed = await this.p.committedOffsets();
      if (generation !== this.generation || this.stopping) return;
      for (const { partition, offset: start } of committed) {
        const to = this.rewinds.get(partition);
        if (to === undefined || start < 0) continue;
        this.rewinds.delete(partition);
        this.seekBack(partition, this.position.get(partition) ?? start, to);
      }
    } catch (err) {
      this.p.logger.warn('reading committed positions for a rewind failed; it waits for the partition\'s next message', { group: this.p.kafkaGroupId, error: err });
    } finally {
      this.resolvingRewinds = false;
    }
    // Those asked while the answer was on its way were applied above; a newer assignment's get their own request.
    if (this.rewinds.size > 0 && generation !== this.generation) void this.resolveRewinds();
  }

  /**
   * Seeks `partition` back from `at` to `offset` when the rewind applies; true when it did. The
   * position is committed too (backwards), so it holds should this member leave before reading there.
   */
  private seekBack(partition: number, at: number, offset: number): boolean {
    if (!rewindApplies(at, offset) || !this.consumer) return false;
    try {
      this.consumer.seek({ topic: this.p.kafkaTopic, partition, offset: String(offset) });
      this.position.set(partition, offset);
      this.seeks.set(partition, (this.seeks.get(partition) ?? 0) + 1);
      this.commitLater(this.consumer, partition, String(offset));
      return true;
    } catch (err) {
      this.p.logger.warn('rewinding a partition failed', { group: this.p.kafkaGroupId, partition, error: err });
      return false;
    }
  }

  private track(work: Promise<void>): Promise<void> {
    this.inFlight.add(work);
    return work.finally(() => this.inFlight.delete(work));
  }

  /**
   * A fetched batch of one partition, message by message in order, as kafkajs's eachMessage would
   * (stop at a stop, a seek or a pause; resolve and heartbeat after each), with one set of shared
   * lookups for the batch: every message in it was appended before it was fetched (read-batch.ts).
   * Handlers that look something up per message (the push target, the user's rules) then ask the
   * store once per batch, as on the embedded log; message by message they asked it for every event.
   */
  private async onBatch(consumer: Consumer, { batch, resolveOffset, heartbeat, isRunning, isStale, pause }: EachBatchPayload): Promise<void> {
    const lookups = new SharedLookups();
    for (const message of batch.messages) {
      if (!isRunning() || isStale()) return;
      const held = await this.onMessage(consumer, batch.topic, batch.partition, message, pause, lookups);
      if (held) return;
      resolveOffset(message.offset);
      await heartbeat();
    }
  }

  /** Handles one message; true when it was held back (seek and pause: the batch stops there). */
  private async onMessage(consumer: Consumer, topic: string, partition: number, message: KafkaMessage, pause: () => () => void, lookups: ReadBatch): Promise<boolean> {
    const offset = message.offset;
    // Leave the message uncommitted and stop reading this partition: the next owner gets it.
    const holdBack = (resumeAfterMs?: number) => {
      consumer.seek({ topic, partition, offset });
      const resume = pause();
      if (resumeAfterMs !== undefined) setTimeout(resume, resumeAfterMs).unref();
      return true;
    };
    const rewindTo = this.rewinds.get(partition);
    if (rewindTo !== undefined) {
      this.rewinds.delete(partition);
      // Read from there instead: the batch stops here (the seek makes it stale).
      if (this.seekBack(partition, Number(offset), rewindTo)) return true;
    }
    this.slice.live = Date.now() - Number(message.timestamp) < LIVE_WITHIN_MS;
    await this.slice.pause();
    if (this.stopping) return holdBack();
    const logMessage = toLogMessage(this.p.options.topic, partition, message);
    const seeks = this.seeks.get(partition);
    try {
      await handleInContext(this.p.options.handle, logMessage, lookups);
    } catch (err) {
      if (this.stopping) return holdBack();
      this.p.logger.warn('event handler failed; retrying', { topic: this.p.options.topic, group: this.p.options.groupId, partition, offset, error: err });
      return holdBack(this.p.timing.retryDelayMs);
    }
    // The handler had the partition read again from further back (this message included): the
    // seek stands, and the batch stops here.
    if (this.seeks.get(partition) !== seeks) return true;
    // If the group rebalanced meanwhile this commit fails; the message is then delivered again
    // to the partition's new owner (at least once, never lost).
    const next = String(Number(offset) + 1);
    this.position.set(partition, Number(next));
    if (!this.p.options.commitEveryMs) {
      await consumer.commitOffsets([{ topic, partition, offset: next }]);
      return false;
    }
    this.commitLater(consumer, partition, next);
    return false;
  }

  /** Commits `offset` of `partition` with the next round (commitEveryMs), or at once without one. */
  private commitLater(consumer: Consumer, partition: number, offset: string): void {
    this.pending.set(partition, offset);
    this.commitTimer ??= setTimeout(() => void this.commitPending(consumer, this.p.kafkaTopic), this.p.options.commitEveryMs ?? 0);
  }

  /** Commits what was handled since the last commit, in one request. */
  private async commitPending(consumer: Consumer, topic: string): Promise<void> {
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    if (this.pending.size === 0) return;
    const offsets = [...this.pending].map(([partition, offset]) => ({ topic, partition, offset }));
    this.pending = new Map();
    await consumer.commitOffsets(offsets).catch((err) => this.p.logger.warn('committing stream positions failed; they are delivered again', { group: this.p.kafkaGroupId, error: err }));
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    // Finish (and commit) what is being handled, then leave the group.
    await Promise.allSettled([...this.inFlight]);
    if (this.consumer) await this.commitPending(this.consumer, this.p.kafkaTopic);
    await this.consumer?.disconnect().catch((err) => this.p.logger.warn('kafka consumer disconnect failed', { error: err }));
  }
}
