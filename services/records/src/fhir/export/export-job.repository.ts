/**
 * Bulk Data export jobs and their files, in the records service's store: a job document, and each
 * NDJSON file as ordered parts of at most ~512 KiB, so any replica can answer the status and the
 * downloads and a file never has to be held whole in memory. A running job is leased by the replica
 * that works on it; a job whose lease lapsed (its replica died) is taken over by one other replica,
 * which starts it again as a new attempt: the files are read from the current attempt's parts only,
 * so whatever the earlier attempt wrote never appears twice.
 */
import { type Collection, type CollectionSpec, type DocumentStore, Leases } from '@wellstream/store';

export const EXPORT_TYPES = ['Patient', 'Observation', 'Device'] as const;
export type ExportType = (typeof EXPORT_TYPES)[number];

export interface ExportJob {
  _id: string;
  organization_id: string;
  customer_id: string;
  status: 'in-progress' | 'completed' | 'cancelled' | 'failed';
  /** The kick-off request's URL, as the manifest repeats it. */
  request: string;
  since: string | null;
  types: ExportType[];
  /** When the export started: the manifest's transactionTime. */
  started_at: string;
  /** When the job ended (completed, failed or cancelled); it expires a retention time later. */
  completed_at: string | null;
  /** Which run of the job the files belong to (1 at kick-off, +1 at each takeover). */
  attempt: number;
  /** The replica working on the job, until `lease_until` (an instant); it renews the lease while it works. */
  lease_owner: string | null;
  lease_until: string | null;
  users_done: number;
  users_total: number;
  output: { type: ExportType; count: number; parts: number }[];
}

export interface ExportPart {
  _id: string;
  job_id: string;
  attempt: number;
  type: ExportType;
  seq: number;
  ndjson: string;
}

export const EXPORT_JOBS_SPEC: CollectionSpec = { name: 'fhir_export_jobs', indexes: [{ fields: { organization_id: 1 } }, { fields: { status: 1, completed_at: 1 } }] };
/** Who is taking a job over, per job (libs/store claims.ts). */
const TAKEOVERS = 'fhir_export_takeovers';
const PARTS_SPEC: CollectionSpec = { name: 'fhir_export_parts', indexes: [{ fields: { job_id: 1, attempt: 1, type: 1, seq: 1, _id: 1 } }], partitionKey: 'job_id' };

export class ExportJobRepository {
  private constructor(
    private readonly jobs: Collection<ExportJob>,
    private readonly parts: Collection<ExportPart>,
    private readonly takeovers: Leases,
  ) {}

  static async open(store: DocumentStore): Promise<ExportJobRepository> {
    return new ExportJobRepository(
      await store.collection<ExportJob>(EXPORT_JOBS_SPEC),
      await store.collection<ExportPart>(PARTS_SPEC),
      await Leases.open(store, TAKEOVERS),
    );
  }

  insert(job: ExportJob): Promise<void> {
    return this.jobs.insertOne(job);
  }

  byId(id: string): Promise<ExportJob | null> {
    return this.jobs.findOne({ _id: id });
  }

  /** Updates a running job this replica holds; false once it was cancelled or taken over (the worker then stops). */
  async progress(id: string, owner: string, set: Partial<ExportJob>): Promise<boolean> {
    return (await this.jobs.findOneAndUpdate({ _id: id, status: 'in-progress', lease_owner: owner }, { $set: set })) !== null;
  }

  inProgress(): Promise<ExportJob[]> {
    return this.jobs.find({ status: 'in-progress' });
  }

  /**
   * Takes a job over as its next attempt until `now + leaseMs`, only if no one else did since it
   * was read; answers the job as taken, or null. The earlier attempts' parts go. Of two replicas
   * that read the same job, exactly one goes on: the takeover is a lease of its own, taken by
   * inserting a document (libs/store claims.ts), since FerretDB runs a conditional update as a read
   * and then a write and the attempt guard on the update alone let both through. A taker that dies
   * between the two leaves that lease to lapse like the job's, and another replica takes over.
   */
  async takeOver(job: ExportJob, owner: string, now: number, leaseMs: number): Promise<ExportJob | null> {
    if (!(await this.takeovers.take(job._id, owner, now, leaseMs))) return null;
    const attempt = (job.attempt ?? 1) + 1;
    const leaseUntil = new Date(now + leaseMs).toISOString();
    const guard = job.attempt === undefined ? { attempt: { $exists: false } } : { attempt: job.attempt };
    const taken = await this.jobs.findOneAndUpdate(
      { _id: job._id, status: 'in-progress', ...guard },
      { $set: { attempt, lease_owner: owner, lease_until: leaseUntil, users_done: 0, users_total: 0, output: [] } },
    );
    if (taken) await this.parts.deleteMany({ job_id: job._id, attempt: { $lt: attempt } });
    return taken;
  }

  async cancel(id: string, at: string): Promise<void> {
    await this.jobs.findOneAndUpdate({ _id: id }, { $set: { status: 'cancelled', completed_at: at } });
    await this.parts.deleteMany({ job_id: id });
  }

  /** Deletes the jobs that ended before `before`, with their files; answers how many. */
  async expire(before: string): Promise<number> {
    const ended = await this.jobs.find({ status: { $in: ['completed', 'failed', 'cancelled'] }, completed_at: { $lt: before } });
    for (const job of ended) {
      await this.parts.deleteMany({ job_id: job._id });
      await this.takeovers.forget(job._id);
      await this.jobs.deleteMany({ _id: job._id });
    }
    return ended.length;
  }

  /** Cancels every export of the organization and deletes its files (an erasure of one of its users). */
  async cancelAllOf(organizationId: string): Promise<number> {
    const jobs = await this.jobs.find({ organization_id: organizationId, status: { $ne: 'cancelled' } });
    for (const job of jobs) await this.cancel(job._id, new Date().toISOString());
    return jobs.length;
  }

  addPart(part: ExportPart): Promise<void> {
    return this.parts.insertOne(part);
  }

  /** A file's parts in order, a page at a time. */
  partsOf(job: Pick<ExportJob, '_id' | 'attempt'>, type: ExportType): AsyncIterable<ExportPart[]> {
    // A job written before attempts existed has parts without one.
    const attempt = job.attempt === undefined ? { $exists: false } : job.attempt;
    return this.parts.findPages({ job_id: job._id, attempt, type }, { sort: { seq: 1 }, pageSize: 4 });
  }
}
