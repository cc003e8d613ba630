/**
 * Runs this replica's Bulk Data exports and keeps every export moving whatever happens to the
 * replica that started it: each running job holds a lease that its replica renews every third of
 * the lease time; a job whose lease lapsed (the process died or stopped midway) is taken over by
 * whichever replica first claims it (the claim is an insert of a takeover lease, so exactly one
 * wins), which runs it again from the start as a new attempt. The same tick deletes exports
 * that ended more than the retention time ago, with their files.
 */
import { randomUUID } from 'node:crypto';
import { DEFAULT_HISTORY_DAYS } from '@wellstream/contracts';
import { addDays, type Clock } from '@wellstream/clock';
import type { ExportJob } from './export-job.repository';
import { runExport, type RunExportDeps } from './run-export';

export interface ExportWorkerDeps extends RunExportDeps {
  organizations: { find(organizationId: string): Promise<{ history_days: number } | null> };
  clock: Clock;
  leaseMs: number;
  retentionMs: number;
}

export class ExportWorker {
  readonly owner = `records_${randomUUID()}`;
  /** The jobs this replica runs now. */
  private readonly running = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: ExportWorkerDeps) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), Math.max(100, Math.floor(this.deps.leaseMs / 3)));
    void this.tick();
  }

  /** Stops renewing and running: what this replica had in progress is taken over once its lease lapses. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.ticking;
  }

  leaseUntil(): string {
    return new Date(this.deps.clock.now().getTime() + this.deps.leaseMs).toISOString();
  }

  /** Runs a job this replica holds the lease of, in the background. */
  run(job: ExportJob): void {
    if (this.stopped) return;
    this.running.add(job._id);
    const live = () => !this.stopped && this.running.has(job._id);
    const now = () => this.deps.clock.now().toISOString();
    void (async () => {
      const today = job.started_at.slice(0, 10);
      const historyDays = (await this.deps.organizations.find(job.organization_id))?.history_days ?? DEFAULT_HISTORY_DAYS;
      await runExport(this.deps, { owner: this.owner, live, now }, job, addDays(today, -historyDays), today);
    })()
      .catch(async (err: unknown) => {
        // A stopping process leaves the job to the replica that takes it over.
        if (!live()) return;
        this.deps.logger.error('FHIR export failed', { error: err, export_id: job._id });
        await this.deps.jobs.progress(job._id, this.owner, { status: 'failed', completed_at: now() }).catch(() => undefined);
      })
      .finally(() => this.running.delete(job._id));
  }

  private tick(): Promise<void> {
    this.ticking ??= this.work()
      .catch((err: unknown) => this.deps.logger.warn('FHIR export upkeep failed; trying again at the next tick', { error: err }))
      .finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async work(): Promise<void> {
    for (const id of [...this.running]) {
      // Cancelled, or taken over after a pause longer than the lease: this run stops.
      if (!(await this.deps.jobs.progress(id, this.owner, { lease_until: this.leaseUntil() }))) this.running.delete(id);
    }
    const now = this.deps.clock.now().toISOString();
    for (const job of await this.deps.jobs.inProgress()) {
      if (this.stopped) return;
      if (this.running.has(job._id) || (job.lease_until && job.lease_until > now)) continue;
      const taken = await this.deps.jobs.takeOver(job, this.owner, this.deps.clock.now().getTime(), this.deps.leaseMs);
      if (taken) {
        this.deps.logger.info('FHIR export taken over after its lease lapsed', { export_id: job._id, attempt: taken.attempt });
        this.run(taken);
      }
    }
    await this.deps.jobs.expire(new Date(this.deps.clock.now().getTime() - this.deps.retentionMs).toISOString());
  }
}
