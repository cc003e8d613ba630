/**
 * Records ingested per organization per UTC day: one small document per (organization, day),
 * `_id` = `<organization id>:<YYYY-MM-DD>`, so a write is one keyed upsert and a month's read is
 * one keyed `$in`, on either store, however much the platform holds.
 */
import type { Collection, DocumentStore } from '@wellstream/store';

/** What one day's ingestion stored: every new version of a record is one of these three. */
export interface IngestionTally {
  /** First versions of records never stored before. */
  created: number;
  /** New versions of stored records. */
  updated: number;
  /** Deletions (a version with `deleted_at`). */
  deleted: number;
}

export interface IngestionCountDoc extends IngestionTally {
  _id: string;
  organization_id: string;
  date: string;
}

export const ingestionCountId = (organizationId: string, date: string) => `${organizationId}:${date}`;

export class IngestionCountRepository {
  private constructor(private readonly counts: Collection<IngestionCountDoc>) {}

  static async open(store: DocumentStore): Promise<IngestionCountRepository> {
    return new IngestionCountRepository(await store.collection<IngestionCountDoc>({ name: 'ingestion_counts' }));
  }

  /** Adds to one day's counts (atomic `$inc` on the server: replicas add without reading). */
  async add(organizationId: string, date: string, tally: IngestionTally): Promise<void> {
    await this.counts.findOneAndUpdate(
      { _id: ingestionCountId(organizationId, date) },
      { $inc: { created: tally.created, updated: tally.updated, deleted: tally.deleted }, $setOnInsert: { organization_id: organizationId, date } },
      { upsert: true },
    );
  }

  /** The stored days among `dates` (days without ingestion have no document). */
  days(organizationId: string, dates: string[]): Promise<IngestionCountDoc[]> {
    return this.counts.find({ _id: { $in: dates.map((d) => ingestionCountId(organizationId, d)) } });
  }
}
