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
import { messageOf, OutboxEntry, stateCheckOf } from './outbox-entry';
import type { OutboxRepository } from './outbox.repository';
import type { Clock } from '@wellstream/clock';

const BATCH = 500;
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

  private async publishReady(): Promise<void> {
    for (let round = 0; round < 1000; round++) {
      if (!(await this.o.entries.takeRelay(this.holder, Date.now(), this.o.leaseMs))) {
        this.busyRetry ??= setTimeout(() => {
          this.busyRetry = undefined;
          void this.drainOrWarn();
        }, BUSY_RETRY_MS).unref();
        return;
      }
      try {
        if (!(await this.publishRound())) return;
      } finally {
        await this.o.entries.releaseRelay(this.holder).catch(() => undefined);
      }
    }
  }

  /** One round under the lease; false when nothing more can go now. */
  private async publishRound(): Promise<boolean> {
    const oldest = await this.o.entries.oldest(BATCH);
    const run = leadingReady(oldest);
    if (run.length === 0) return oldest.length > 0 && (await this.resolveStale(oldest));
    // Order matters per key, and keys live within a topic: one publish per topic, in write order.
    const byTopic = new Map<string, OutboxEntry[]>();
    for (const e of run) (byTopic.get(e.topic) ?? byTopic.set(e.topic, []).get(e.topic)!).push(e);
    for (const [topic, list] of byTopic) {
      await this.o.eventLog.publish(topic, list.map(messageOf));
      await this.o.entries.remove(list.map((e) => e._id));
    }
    return true;
  }

  /** Resolves the stale prepared entries at the head; true when something changed. */
  private async resolveStale(oldest: OutboxEntry[]): Promise<boolean> {
    const before = new Date(this.o.clock.now().getTime() - this.o.staleMs).toISOString();
    const stale = oldest.filter((e) => e.state === 'prepared' && e.created_at < before);
    if (stale.length === 0 || stale[0]._id !== oldest[0]._id) return false;
    const ready: string[] = [];
    const orphans: string[] = [];
    for (const e of stale) ((await this.o.entries.confirmed(stateCheckOf(e))) ? ready : orphans).push(e._id);
    await this.o.entries.setReady(ready);
    await this.o.entries.remove(orphans);
    if (orphans.length) this.o.logger.info('dropped outbox entries whose state change was never stored', { count: orphans.length });
    return true;
  }
}

function leadingReady(entries: OutboxEntry[]): OutboxEntry[] {
  const firstPrepared = entries.findIndex((e) => e.state !== 'ready');
  return firstPrepared < 0 ? entries : entries.slice(0, firstPrepared);
}
