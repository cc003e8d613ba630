/**
 * The sync queue. A backlog collection (jobs leave when done; a connection holds at most three),
 * so the due-work query costs the queue's length, not the data synced so far.
 */
import type { Collection, CollectionSpec, DocumentStore } from '@wellstream/store';
import { EPOCH, jobId, LiveWork, PendingRevoke, PRIORITY, SyncJob, SyncKind } from './sync-job';

/**
 * As every opener declares it: the due poll walks (priority, due_at) in order; a connection's jobs
 * are erased with its user.
 */
export const SYNC_JOBS_SPEC: CollectionSpec = {
  name: 'sync_jobs',
  backlog: true,
  indexes: [{ fields: { due_at: 1 } }, { fields: { priority: 1, due_at: 1 } }, { fields: { connection_id: 1 } }],
};

export class SyncJobRepository {
  private constructor(private readonly jobs: Collection<SyncJob>) {}

  static async open(store: DocumentStore): Promise<SyncJobRepository> {
    return new SyncJobRepository(await store.collection<SyncJob>(SYNC_JOBS_SPEC));
  }

  /** Due, unleased jobs, most urgent first. */
  due(now: Date, limit: number): Promise<SyncJob[]> {
    const at = now.toISOString();
    return this.jobs.find({ due_at: { $lte: at }, lease_until: { $lt: at } }, { sort: { priority: 1, due_at: 1 }, limit });
  }

  /** Leases a job for this process; null when another took it first. */
  lease(job: SyncJob, now: Date, holdMs: number): Promise<SyncJob | null> {
    return this.jobs.findOneAndUpdate({ _id: job._id, rev: job.rev, lease_until: { $lt: now.toISOString() } }, { $set: { lease_until: new Date(now.getTime() + holdMs).toISOString() } });
  }

  /** Puts a job in the queue, or moves an existing one earlier; live windows, objects and checks are merged. */
  async schedule(connectionId: string, kind: SyncKind, dueAt: Date, windows?: SyncJob['windows'], live: LiveWork = {}): Promise<void> {
    const id = jobId(connectionId, kind);
    for (let attempt = 0; attempt < 10; attempt++) {
      const existing = await this.jobs.findOne({ _id: id });
      if (!existing) {
        try {
          await this.jobs.insertOne({ _id: id, connection_id: connectionId, kind, priority: PRIORITY[kind], due_at: dueAt.toISOString(), lease_until: EPOCH, rev: 0, attempts: 0, ...(windows ? { windows } : {}), ...liveFields(live) });
          return;
        } catch {
          continue; // inserted meanwhile: merge into it
        }
      }
      const due = existing.due_at < dueAt.toISOString() && existing.attempts === 0 ? existing.due_at : dueAt.toISOString();
      const merged = windows ? mergeWindows(existing.windows ?? {}, windows) : existing.windows;
      // A run in progress fetches the objects it was leased with: new ones wait for the next run.
      const runs = existing.lease_until > dueAt.toISOString();
      const field = runs ? 'objects_next' : 'objects';
      const objects = live.objects ? mergeObjects(existing[field] ?? {}, live.objects) : undefined;
      const set = { due_at: due, attempts: 0, ...(merged ? { windows: merged } : {}), ...(objects ? { [field]: objects } : {}), ...(live.access_check ? { access_check: live.access_check } : {}), ...(live.permissions_check ? { permissions_check: true } : {}) };
      const updated = await this.jobs.findOneAndUpdate({ _id: id, rev: existing.rev }, { $set: set, $inc: { rev: 1 } });
      if (updated) return;
    }
    throw new Error(`could not schedule ${id}: too much contention`);
  }

  /** Queues the revoke of an ended connection (replacing one already queued for it), due now. */
  async scheduleRevoke(connectionId: string, revoke: PendingRevoke, dueAt: Date): Promise<void> {
    const id = jobId(connectionId, 'revoke');
    const fields = { connection_id: connectionId, kind: 'revoke' as const, priority: PRIORITY.revoke, due_at: dueAt.toISOString(), lease_until: EPOCH, attempts: 0, revoke };
    const updated = await this.jobs.findOneAndUpdate({ _id: id }, { $set: fields, $inc: { rev: 1 } });
    if (updated) return;
    try {
      await this.jobs.insertOne({ _id: id, rev: 0, ...fields });
    } catch {
      await this.jobs.findOneAndUpdate({ _id: id }, { $set: fields, $inc: { rev: 1 } });
    }
  }

  /**
   * Done: removed unless it changed while it ran; then it runs again with what came in: the
   * objects named meanwhile, not those this run fetched (a burst of notifications costs one fetch
   * each, not another round of all of them per arrival).
   */
  async finish(job: SyncJob): Promise<void> {
    if ((await this.jobs.deleteMany({ _id: job._id, rev: job.rev })) > 0) return;
    for (let attempt = 0; attempt < 10; attempt++) {
      const current = await this.jobs.findOne({ _id: job._id });
      if (!current) return;
      // Objects merged in directly (the lease had lapsed) that this run did not have stay too.
      const remaining = mergeObjects(without(current.objects ?? {}, job.objects ?? {}), current.objects_next ?? {});
      const objects = Object.keys(remaining).length > 0 ? { $set: { lease_until: EPOCH, objects: remaining } } : { $set: { lease_until: EPOCH }, $unset: { objects: '' as const } };
      const updated = await this.jobs.findOneAndUpdate({ _id: job._id, rev: current.rev }, { ...objects, $unset: { ...objects.$unset, objects_next: '' }, $inc: { rev: 1 } });
      if (updated) return;
    }
    await this.jobs.findOneAndUpdate({ _id: job._id }, { $set: { lease_until: EPOCH } });
  }

  /** Runs again at `dueAt` (a backfill's next chunk, a poll's next round, a retry), with everything named meanwhile. */
  async again(job: SyncJob, dueAt: Date, failed: boolean): Promise<void> {
    const current = job.kind === 'live' ? await this.jobs.findOne({ _id: job._id }) : null;
    // A check that came in while the run failed (a permission change, an unsigned deauthorization)
    // is not this run's failure: it stays due when it was asked for, not after the failure's wait.
    const newCheck = current && ((current.permissions_check && !job.permissions_check) || (current.access_check && !job.access_check));
    const due = newCheck && current.due_at < dueAt.toISOString() ? current.due_at : dueAt.toISOString();
    const set = { due_at: due, lease_until: EPOCH, attempts: failed ? job.attempts + 1 : 0 };
    if (!current?.objects_next) {
      await this.jobs.findOneAndUpdate({ _id: job._id }, { $set: set });
      return;
    }
    const updated = await this.jobs.findOneAndUpdate({ _id: job._id, rev: current.rev }, { $set: { ...set, objects: mergeObjects(current.objects ?? {}, current.objects_next) }, $unset: { objects_next: '' }, $inc: { rev: 1 } });
    if (!updated) await this.jobs.findOneAndUpdate({ _id: job._id }, { $set: set });
  }

  /** The reason of an unsigned "access withdrawn" notice waiting in the connection's live job, if one is. */
  async accessCheckOf(connectionId: string): Promise<{ reason: string } | undefined> {
    return (await this.jobs.findOne({ _id: jobId(connectionId, 'live') }))?.access_check;
  }

  /** The connection's sync work (a queued revoke stays: it outlives the connection on purpose). */
  removeFor(connectionId: string): Promise<number> {
    return this.jobs.deleteMany({ _id: { $in: (['live', 'poll', 'backfill'] as SyncKind[]).map((k) => jobId(connectionId, k)) } });
  }
}

function mergeWindows(a: NonNullable<SyncJob['windows']>, b: NonNullable<SyncJob['windows']>): NonNullable<SyncJob['windows']> {
  const out = { ...a };
  for (const [resource, w] of Object.entries(b)) {
    const cur = out[resource];
    out[resource] = cur ? { start: cur.start < w.start ? cur.start : w.start, end: cur.end > w.end ? cur.end : w.end } : w;
  }
  return out;
}

/** A live job keeps at most this many object ids a resource (the newest): a flood cannot grow a job without bound. */
export const MAX_OBJECTS = 500;

const liveFields = (live: LiveWork): LiveWork => ({
  ...(live.objects ? { objects: mergeObjects({}, live.objects) } : {}),
  ...(live.access_check ? { access_check: live.access_check } : {}),
  ...(live.permissions_check ? { permissions_check: true } : {}),
});

/** `a` without the ids of `b`, resources left empty dropped. */
function without(a: Record<string, string[]>, b: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [resource, ids] of Object.entries(a)) {
    const done = new Set(b[resource] ?? []);
    const left = ids.filter((id) => !done.has(id));
    if (left.length > 0) out[resource] = left;
  }
  return out;
}

function mergeObjects(a: Record<string, string[]>, b: Record<string, string[]>): Record<string, string[]> {
  const out = { ...a };
  for (const [resource, ids] of Object.entries(b)) out[resource] = [...new Set([...(out[resource] ?? []), ...ids])].slice(-MAX_OBJECTS);
  return out;
}
