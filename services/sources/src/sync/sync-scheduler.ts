/**
 * Runs due sync jobs: every tick it leases what is due (most urgent first) up to the concurrency
 * limit, per connection at most one urgent and one background job at a time in this process (token
 * refreshes are shared by the TokenKeeper; history progress stays sequential). Each job is awaited I/O, never a loop on the event loop. The
 * lease makes replicas share the queue; a job whose process died runs again when its lease ends.
 */
import type { Logger } from '@wellstream/logging';
import type { Clock } from '@wellstream/clock';
import type { SyncJobRepository } from './sync-job.repository';
import type { SyncJob } from './sync-job';

const LEASE_MS = 5 * 60_000;

/**
 * A connection runs one urgent job (a revoke or a live fetch) and one background job (a poll or a
 * history page) at a time in this process: a notification's fetch never waits for a poll round or
 * a history page of the same connection (replicas already run them side by side).
 */
const laneOf = (job: SyncJob) => `${job.connection_id}:${job.kind === 'live' || job.kind === 'revoke' ? 'urgent' : 'background'}`;

export interface SchedulerOptions {
  jobs: SyncJobRepository;
  run(job: SyncJob): Promise<void>;
  clock: Clock;
  logger: Logger;
  tickMs: number;
  concurrency: number;
}

export class SyncScheduler {
  private timer: NodeJS.Timeout | undefined;
  private readonly busy = new Map<string, Promise<void>>();
  private ticking = false;
  private stopped = false;

  constructor(private readonly o: SchedulerOptions) {}

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.o.tickMs);
    this.timer.unref();
    void this.tick();
  }

  /** Look for work now (a notification or a connect just queued some). */
  poke(): void {
    void this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.busy.values()]);
  }

  /** Jobs running now (tests and /metrics). */
  running(): number {
    return this.busy.size;
  }

  private async tick(): Promise<void> {
    if (this.ticking || this.stopped) return;
    this.ticking = true;
    try {
      const room = this.o.concurrency - this.busy.size;
      if (room <= 0) return;
      const now = this.o.clock.now();
      for (const job of await this.o.jobs.due(now, room + this.busy.size)) {
        if (this.busy.size >= this.o.concurrency || this.stopped) break;
        const lane = laneOf(job);
        if (this.busy.has(lane)) continue;
        const leased = await this.o.jobs.lease(job, now, LEASE_MS);
        if (!leased) continue;
        this.o.logger.debug('sync job', { job: leased._id, attempts: leased.attempts });
        const run = this.o
          .run(leased)
          .catch((err) => this.o.logger.error('sync job failed unexpectedly', { job: leased._id, error: err }))
          .finally(() => {
            this.busy.delete(lane);
            // More may be due (a backfill's next chunk): look again without waiting for the tick.
            if (!this.stopped) setImmediate(() => void this.tick());
          });
        this.busy.set(lane, run);
      }
    } catch (err) {
      this.o.logger.warn('sync scheduler could not read the queue', { error: err });
    } finally {
      this.ticking = false;
    }
  }
}
