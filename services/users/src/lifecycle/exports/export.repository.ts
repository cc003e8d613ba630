/**
 * Export jobs and their chunks in the users service's own store. Chunks are found by export and
 * read in file order a page at a time (index on export_id, order), so a large export is streamed,
 * never held whole.
 */
import type { Collection, DocumentStore } from '@wellstream/store';
import type { ExportChunk, ExportJob } from './export';

export const EXPORTS_COLLECTION = 'user_exports';

export class ExportRepository {
  private constructor(
    private readonly jobs: Collection<ExportJob>,
    private readonly chunks: Collection<ExportChunk>,
  ) {}

  static async open(store: DocumentStore): Promise<ExportRepository> {
    return new ExportRepository(
      await store.collection<ExportJob>({ name: EXPORTS_COLLECTION, indexes: [{ fields: { user_id: 1 } }] }),
      await store.collection<ExportChunk>({ name: 'user_export_chunks', indexes: [{ fields: { export_id: 1, order: 1, _id: 1 } }] }),
    );
  }

  insert = (job: ExportJob) => this.jobs.insertOne(job);
  byId = (id: string) => this.jobs.findOne({ _id: id });
  replace = (job: ExportJob) => this.jobs.bulkUpsert([job]);
  saveChunk = (chunk: ExportChunk) => this.chunks.bulkUpsert([chunk]);

  /** The file's chunks in order, a page at a time. */
  chunkPages(exportId: string, pageSize = 20): AsyncIterable<ExportChunk[]> {
    return this.chunks.findPages({ export_id: exportId }, { sort: { order: 1 }, pageSize });
  }

  async idsOfUser(userId: string): Promise<string[]> {
    return (await this.jobs.find({ user_id: userId })).map((j) => j._id);
  }

  /** Erasure: the user's exports and their files. */
  async removeForUser(userId: string): Promise<number> {
    const jobs = await this.jobs.find({ user_id: userId });
    for (const job of jobs) await this.chunks.deleteMany({ export_id: job._id });
    return jobs.length ? this.jobs.deleteMany({ user_id: userId }) : 0;
  }
}
