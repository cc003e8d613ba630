/**
 * Counts what ingestion stores, per organization and UTC day, off the hot path: ingestion adds to
 * an in-process tally (a map update, no I/O), and a timer writes the tally out every
 * `flushMs` as one `$inc` per (organization, day) touched. Ingestion's cost does not change with
 * this, and the store sees one write per active organization per interval, not one per request.
 * What a crash loses is at most one interval's counts of this process (the counts are operator
 * statistics, not the records, which are stored before their answer). A failed write is kept and
 * retried at the next tick.
 */
import type { IngestionCountRepository, IngestionTally } from './ingestion-count.repository';

interface Pending extends IngestionTally {
  organizationId: string;
  date: string;
}

export class IngestionCounter {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: IngestionCountRepository,
    private readonly options: { flushMs: number; onError: (err: unknown) => void },
  ) {}

  /** Adds one batch's stored versions; synchronous, nothing awaited. */
  add(organizationId: string, date: string, tally: IngestionTally): void {
    const key = `${organizationId}:${date}`;
    const p = this.pending.get(key);
    if (p) {
      p.created += tally.created;
      p.updated += tally.updated;
      p.deleted += tally.deleted;
    } else this.pending.set(key, { organizationId, date, ...tally });
  }

  start(): void {
    this.timer ??= setInterval(() => void this.flush().catch(this.options.onError), this.options.flushMs);
    this.timer.unref();
  }

  /** Writes what this process has counted so far; flushes run one after another. */
  flush(): Promise<void> {
    this.flushing = this.flushing.catch(() => undefined).then(() => this.writeOut());
    return this.flushing;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async writeOut(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const results = await Promise.allSettled(batch.map((p) => this.repo.add(p.organizationId, p.date, p)));
    // Put back what was not written (added to what arrived meanwhile) for the next tick.
    const failures = results.flatMap((r, i) => (r.status === 'rejected' ? [{ p: batch[i], reason: r.reason as unknown }] : []));
    for (const { p } of failures) this.add(p.organizationId, p.date, p);
    if (failures.length) throw failures[0].reason;
  }
}
