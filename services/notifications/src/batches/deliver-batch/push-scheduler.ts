/**
 * The push loop of one replica: on every tick it forms due batches, then starts a worker per
 * organization with due tries. A worker sends its organization's due batches one after the other
 * in formation order; organizations proceed in parallel, so a slow receiver delays only its own
 * organization. All schedule state lives in the store (next_attempt_ms, leases), so a restart or
 * another replica simply picks up where this one stopped.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '@wellstream/logging';
import type { BatchRepository, DueBatch } from '../batch.repository';
import { formDueBatches, FormBatchesDeps } from '../form-batches/form-batches.usecase';
import { deliverBatch, DeliverBatchDeps } from './deliver-batch.usecase';
import { BATCH_RETENTION_MS } from '../batch';

export interface PushSchedulerDeps extends Omit<FormBatchesDeps, 'settings'>, Omit<DeliverBatchDeps, 'settings' | 'owner'> {
  batches: BatchRepository;
  settings: FormBatchesDeps['settings'] & DeliverBatchDeps['settings'] & { pollMs: number; timeoutMs: number };
  logger: Logger;
}

const DUE_SCAN_LIMIT = 200;
const MAX_PARALLEL_ORGANIZATIONS = 16;
const PURGE_EVERY_MS = 3600_000;
const PURGE_LIMIT = 500;
/** Grace for in-flight tries at shutdown before they are cut short (and retried after restart). */
const STOP_GRACE_MS = 3000;

export class PushScheduler {
  readonly owner = `notifications-${randomUUID()}`;
  private timer: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;
  private readonly workers = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private queuedSinceTick = new Map<string, number>();
  private lastPurgeMs = 0;

  constructor(private readonly deps: PushSchedulerDeps) {}

  start(): void {
    this.schedule(0);
  }

  /** A record was queued: tick early when an organization may have a full batch. */
  noteQueued(organizationId: string): void {
    const n = (this.queuedSinceTick.get(organizationId) ?? 0) + 1;
    this.queuedSinceTick.set(organizationId, n);
    if (n >= this.deps.settings.batchSize) this.schedule(0);
  }

  /** Something became due now (e.g. a redelivery request). */
  wake(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.ticking;
    const all = Promise.all(this.workers.values());
    const grace = new Promise<void>((r) => setTimeout(r, STOP_GRACE_MS).unref());
    await Promise.race([all, grace]);
    this.abort.abort();
    await all;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.runTick(), delayMs);
  }

  private runTick(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.schedule(this.deps.settings.pollMs);
      return;
    }
    this.queuedSinceTick = new Map();
    this.ticking = this.tick()
      .catch((err) => {
        this.deps.logger.error('push tick failed', { error: err });
      })
      .finally(() => {
        this.ticking = undefined;
        this.schedule(this.deps.settings.pollMs);
      });
  }

  private async tick(): Promise<void> {
    await formDueBatches(this.deps);
    if (this.stopped) return;
    await this.purgeOld();
    const due = await this.deps.batches.due(this.now(), DUE_SCAN_LIMIT);
    const byOrganization = new Map<string, DueBatch[]>();
    for (const b of due) byOrganization.set(b.organization_id, [...(byOrganization.get(b.organization_id) ?? []), b]);
    for (const [organizationId, batches] of byOrganization) {
      if (this.workers.has(organizationId)) continue;
      if (this.workers.size >= MAX_PARALLEL_ORGANIZATIONS) break;
      const worker = this.work(organizationId, batches)
        .catch((err) => {
          this.deps.logger.error('push worker failed', { organization_id: organizationId, error: err });
        })
        .finally(() => this.workers.delete(organizationId));
      this.workers.set(organizationId, worker);
    }
  }

  private async work(organizationId: string, batches: DueBatch[]): Promise<void> {
    const leaseMs = this.deps.settings.timeoutMs + 15_000;
    for (const b of batches) {
      if (this.stopped) return;
      // First tries follow formation order, even across replicas.
      if (b.attempt_count === 0 && (await this.deps.batches.hasEarlierUnattempted(organizationId, b.seq))) continue;
      const claimed = await this.deps.batches.claim(b._id, this.now(), leaseMs, this.owner);
      if (!claimed) continue;
      await deliverBatch({ ...this.deps, owner: this.owner }, claimed, this.abort.signal);
    }
  }

  /** At most once an hour, a bounded slice of the batches past retention. */
  private async purgeOld(): Promise<void> {
    const now = this.now();
    if (now - this.lastPurgeMs < PURGE_EVERY_MS) return;
    this.lastPurgeMs = now;
    const removed = await this.deps.batches.purgeFinishedBefore(now - BATCH_RETENTION_MS, PURGE_LIMIT);
    if (removed) this.deps.logger.info('removed batches past retention', { count: removed });
  }

  private now(): number {
    return this.deps.clock.now().getTime();
  }
}
