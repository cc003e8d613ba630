/**
 * Publishes the outbox: ready entries in write order, then marks them published. Runs after every
 * ingestion, on start-up and on a timer, one drain at a time. A crash between publish and mark
 * publishes the entry again later (at-least-once; consumers see the same record id and checksum).
 */
import type { EventLog } from '@wellstream/bus';
import type { Logger } from '@wellstream/logging';
import type { RecordRepository } from '../records/record.repository';
import type { OutboxEntry, OutboxRepository } from './outbox.repository';

const BATCH = 500;
const KEEP_PUBLISHED_MS = 24 * 3600 * 1000;

export interface OutboxRelayOptions {
  outbox: OutboxRepository;
  records: RecordRepository;
  eventLog: EventLog;
  logger: Logger;
  clock: () => Date;
  /** Prepared entries older than this were left by a crashed writer. */
  staleMs: number;
}

export class OutboxRelay {
  private running: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

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

  /** Best effort for the request path: a failure is logged and left to the periodic drain. */
  async tryDrain(): Promise<void> {
    await this.drain().catch((err) => this.o.logger.warn('outbox publish failed; will retry', { error: err }));
  }

  /** Start-up recovery and the periodic drain. */
  async start(intervalMs: number): Promise<void> {
    await this.recoverPrepared().catch((err) => this.o.logger.warn('outbox recovery failed', { error: err }));
    await this.tryDrain();
    let ticks = 0;
    this.timer = setInterval(() => {
      ticks++;
      void (async () => {
        await this.recoverPrepared();
        await this.drain();
        if (ticks % 100 === 0) await this.o.outbox.purgePublished(new Date(this.o.clock().getTime() - KEEP_PUBLISHED_MS));
      })().catch((err) => this.o.logger.warn('outbox drain failed; will retry', { error: err }));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Resolves entries a crashed writer left `prepared`: ready if their record version is stored, else dropped. */
  async recoverPrepared(): Promise<void> {
    const before = new Date(this.o.clock().getTime() - this.o.staleMs).toISOString();
    for (let round = 0; round < 100; round++) {
      const stale = await this.o.outbox.preparedBefore(before, BATCH);
      if (stale.length === 0) return;
      const stored = new Map((await this.o.records.byIds([...new Set(stale.map((e) => e.record_id))])).map((d) => [d._id, d.checksum]));
      const ready = stale.filter((e) => stored.get(e.record_id) === e.checksum).map((e) => e._id);
      const orphans = stale.filter((e) => stored.get(e.record_id) !== e.checksum).map((e) => e._id);
      await this.o.outbox.setReady(ready);
      await this.o.outbox.drop(orphans);
      if (orphans.length) this.o.logger.info('dropped outbox entries whose records were never stored', { count: orphans.length });
    }
  }

  private async publishReady(): Promise<void> {
    for (let round = 0; round < 1000; round++) {
      const entries = await this.o.outbox.ready(BATCH);
      if (entries.length === 0) return;
      // Keep write order within a topic; the log keeps order per partition key.
      const byTopic = new Map<string, OutboxEntry[]>();
      for (const e of entries) (byTopic.get(e.topic) ?? byTopic.set(e.topic, []).get(e.topic)!).push(e);
      for (const [topic, list] of byTopic) {
        await this.o.eventLog.publish(
          topic,
          list.map((e) => ({ key: e.key, partitionKey: e.partition_key, value: e.value, ...(e.tenant ? { tenant: e.tenant } : {}) })),
        );
        await this.o.outbox.markPublished(
          list.map((e) => e._id),
          this.o.clock(),
        );
      }
    }
  }
}
