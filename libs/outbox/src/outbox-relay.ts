/**
 * Publishes the outbox: the oldest entries, as long as they are ready, in write order, then deletes
 * them. An entry still `prepared` stops the run (a later entry of the same key must not overtake
 * it) until its writer marks it ready or, once stale, the relay resolves it by its state check:
 * stored → ready, not stored → dropped. A crash between publish and delete publishes the entry
 * again later (at-least-once; consumers are idempotent). One drain at a time per process, and one
 * relay at a time per outbox: replicas of a service share it, so each round takes a short lease
 * first (a relay that finds it taken tries again a moment later, in case the holder finished
 * before this replica's entries were ready); a crashed holder's lease expires.
 */
import { randomUUID } from 'node:crypto';
import type { EventLog } from '@wellstream/bus';
import type { Logger } from '@wellstream/logging';
import { derivedOf, EntryMessage, messagesOf, OutboxEntry, withMessages } from './outbox-entry';
import type { OutboxRepository } from './outbox.repository';
import type { Clock } from '@wellstream/clock';

/** Entries read at a time (each one write's messages). */
const BATCH = 100;
/** Messages published in one round, at least one entry's. */
const ROUND_MESSAGES = 1_000;
/** How soon a relay that found the lease taken tries again. */
const BUSY_RETRY_MS = 50;

export interface OutboxRelayOptions {
  entries: OutboxRepository;
  eventLog: EventLog;
  logger: Logger;
  clock: Clock;
  /** Prepared entries older than this were left by a crashed (or failed) writer. */
  staleMs: number;
  /** How long a round's lease lasts, in real time between processes (another relay takes over after a holder that crashed, or hangs this long). */
  leaseMs: number;
}

export interface OutboxBacklog {
  /** Entries not yet published (prepared or ready). */
  count: number;
  /** Age of the oldest of them, ms (0 when empty). */
  oldestAgeMs: number;
}

export class OutboxRelay {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;
  private kicked: NodeJS.Immediate | undefined;
  private busyRetry: NodeJS.Timeout | undefined;
  private readonly holder = randomUUID();

  constructor(private readonly o: OutboxRelayOptions) {}

  /** Drains now; concurrent callers share one drain (and one more runs if asked meanwhile). */
  drain(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.publishReady();
        } while (this.again);
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /**
   * Starts a drain without waiting for it (the request path): a failure is left to the timer.
   * The drain starts once this turn of the event loop is done, so the writes of all requests
   * answered in one turn go to the log as one publish (one append, one wake-up of each consumer).
   */
  kick(): void {
    if (this.kicked) return;
    this.kicked = setImmediate(() => {
      this.kicked = undefined;
      void this.drainOrWarn();
    });
  }

  private drainOrWarn(): Promise<void> {
    return this.drain().catch((err) => void this.o.logger.warn('outbox publish failed; will retry', { error: err }));
  }

  /** Publishes what a previous run left, then drains on a timer. */
  async start(intervalMs: number): Promise<void> {
    await this.drainOrWarn();
    this.timer = setInterval(() => void this.drainOrWarn(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.busyRetry) clearTimeout(this.busyRetry);
    if (this.kicked) {
      // A write answered just now: publish it as the immediate drain would have.
      clearImmediate(this.kicked);
      this.kicked = undefined;
      void this.drainOrWarn();
    }
    await this.running?.catch(() => undefined);
  }

  /** What is waiting to be published (for metrics). */
  async backlog(): Promise<OutboxBacklog> {
    const [count, oldest] = await Promise.all([this.o.entries.count(), this.o.entries.oldest(1)]);
    return { count, oldestAgeMs: oldest[0] ? Math.max(0, this.o.clock.now().getTime() - Date.parse(oldest[0].created_at)) : 0 };
  }

  /**
   * Rounds under one lease until nothing more can go. The lease is taken once for the rounds that
   * fit in half of it (most drains are one round): each take and give-back is a store write, and on
   * FerretDB the writes of a whole database go one at a time.
   */
  private async publishReady(): Promise<void> {
    for (let round = 0; round < 1000; ) {
      if (!(await this.o.entries.takeRelay(this.holder, Date.now(), this.o.leaseMs))) {
        this.busyRetry ??= setTimeout(() => {
          this.busyRetry = undefined;
          void this.drainOrWarn();
        }, BUSY_RETRY_MS).unref();
        return;
      }
      const renewAt = Date.now() + this.o.leaseMs / 2;
      let more = true;
      try {
        while (more && round++ < 1000 && Date.now() < renewAt) more = await this.publishRound();
      } finally {
        await this.o.entries.releaseRelay(this.holder).catch(() => undefined);
      }
      if (!more) return;
    }
  }

  /**
   * One round under the lease; false when nothing more can go now: the head is empty or waits on a
   * prepared entry, or this round took every entry there was (a write after its read kicks a drain
   * of its own, so no empty round is read to find that out).
   */
  private async publishRound(): Promise<boolean> {
    const oldest = await this.o.entries.oldest(BATCH);
    const run = leadingReady(oldest);
    if (run.length === 0) return oldest.length > 0 && (await this.resolveStale(oldest));
    // Order matters per key, and keys live within a topic: one publish per topic, in write order.
    const byTopic = new Map<string, EntryMessage['message'][]>();
    for (const { messages } of run) for (const m of messages) (byTopic.get(m.topic) ?? byTopic.set(m.topic, []).get(m.topic)!).push(m.message);
    for (const [topic, list] of byTopic) await this.o.eventLog.publish(topic, list);
    // Removed once every topic took its messages: a crash before this publishes them again (at least once).
    await this.o.entries.remove(run.map(({ entry }) => entry._id));
    if (run.length === oldest.length) return oldest.length === BATCH;
    const next = oldest[run.length];
    return next.state === 'ready' || next.created_at < this.staleBefore();
  }

  /** Prepared entries created before this were left by a crashed (or failed) writer. */
  private staleBefore(): string {
    return new Date(this.o.clock.now().getTime() - this.o.staleMs).toISOString();
  }

  /** Resolves the stale prepared entries at the head; true when something changed. */
  private async resolveStale(oldest: OutboxEntry[]): Promise<boolean> {
    const before = this.staleBefore();
    const stale = oldest.filter((e) => e.state === 'prepared' && e.created_at < before);
    if (stale.length === 0 || stale[0]._id !== oldest[0]._id) return false;
    const ready: string[] = [];
    const orphans: string[] = [];
    const partial: OutboxEntry[] = [];
    let dropped = 0;
    for (const e of stale) {
      const messages = messagesOf(e);
      const stored = await Promise.all(messages.map((m) => this.o.entries.confirmed(m.check)));
      const kept = messages.filter((_, i) => stored[i]);
      dropped += messages.length - kept.length;
      // The writer died after its change and before what follows from it: write that first.
      if (kept.length > 0) await this.o.entries.writeDerived(derivedOf(e));
      if (kept.length === messages.length) ready.push(e._id);
      else if (kept.length === 0) orphans.push(e._id);
      else partial.push(withMessages(e, kept, 'ready'));
    }
    await this.o.entries.markReady(ready);
    await this.o.entries.replace(partial);
    await this.o.entries.remove(orphans);
    if (dropped) this.o.logger.info('dropped outbox messages whose state change was never stored', { count: dropped });
    return true;
  }
}

/** The ready entries before the first prepared one, with their messages: up to ROUND_MESSAGES (at least one entry's). */
function leadingReady(entries: OutboxEntry[]): { entry: OutboxEntry; messages: EntryMessage[] }[] {
  const run: { entry: OutboxEntry; messages: EntryMessage[] }[] = [];
  let count = 0;
  for (const entry of entries) {
    if (entry.state !== 'ready') break;
    const messages = messagesOf(entry);
    if (run.length > 0 && count + messages.length > ROUND_MESSAGES) break;
    run.push({ entry, messages });
    count += messages.length;
  }
  return run;
}
