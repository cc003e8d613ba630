/**
 * Bulk Data export jobs and their files, in the records service's store: a job document, and each
 * NDJSON file as ordered parts of at most ~512 KiB, so any replica can answer the status and the
 * downloads and a file never has to be held whole in memory.
 */
import type { Collection, CollectionSpec, DocumentStore } from '@wellstream/store';

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
  completed_at: string | null;
  users_done: number;
  users_total: number;
  output: { type: ExportType; count: number; parts: number }[];
}

export interface ExportPart {
  _id: string;
  job_id: string;
  type: ExportType;
  seq: number;
  ndjson: string;
}

export const EXPORT_JOBS_SPEC: CollectionSpec = { name: 'fhir_export_jobs', indexes: [{ fields: { organization_id: 1 } }] };
const PARTS_SPEC: CollectionSpec = { name: 'fhir_export_parts', indexes: [{ fields: { job_id: 1, type: 1, seq: 1 } }], partitionKey: 'job_id' };

export class ExportJobRepository {
  private constructor(
    private readonly jobs: Collection<ExportJob>,
    private readonly parts: Collection<ExportPart>,
  ) {}

  static async open(store: DocumentStore): Promise<ExportJobRepository> {
    return new ExportJobRepository(await store.collection<ExportJob>(EXPORT_JOBS_SPEC), await store.collection<ExportPart>(PARTS_SPEC));
  }

  insert(job: ExportJob): Promise<void> {
    return this.jobs.insertOne(job);
  }

  byId(id: string): Promise<ExportJob | null> {
    return this.jobs.findOne({ _id: id });
  }

  /** Updates a running job; false once it was cancelled (the worker then stops). */
  async progress(id: string, set: Partial<ExportJob>): Promise<boolean> {
    return (await this.jobs.findOneAndUpdate({ _id: id, status: 'in-progress' }, { $set: set })) !== null;
  }

  async cancel(id: string): Promise<void> {
    await this.jobs.findOneAndUpdate({ _id: id }, { $set: { status: 'cancelled' } });
    await this.parts.deleteMany({ job_id: id });
  }

  /** Cancels every export of the organization and deletes its files (an erasure of one of its users). */
  async cancelAllOf(organizationId: string): Promise<number> {
    const jobs = await this.jobs.find({ organization_id: organizationId, status: { $ne: 'cancelled' } });
    for (const job of jobs) await this.cancel(job._id);
    return jobs.length;
  }

  addPart(part: ExportPart): Promise<void> {
    return this.parts.insertOne(part);
  }

  /** A file's parts in order, a page at a time. */
  partsOf(jobId: string, type: ExportType): AsyncIterable<ExportPart[]> {
    return this.parts.findPages({ job_id: jobId, type }, { sort: { seq: 1 }, pageSize: 4 });
  }
}
