/**
 * Key documents written with the records, partitioned by user like them, and read by primary key
 * in the same lookup at ingestion:
 * - content keys (`c:…`, checksumAndContentKey): which record holds a content, so the same record
 *   re-sent under another log id is recognised as a duplicate with one keyed read;
 * - availability stats (`s:…`), one per (user, source, resource): the first and last record time
 *   held, how many live records, when data last arrived (the availability endpoint);
 * - earlier versions of records (`v:…`), written with the change that replaced them.
 */
import { createHash } from 'node:crypto';
import type { Collection, CollectionSpec, DocumentStore, UpsertSet } from '@wellstream/store';

export interface ContentKeyDoc {
  _id: string;
  user_id: string;
  kind: 'content';
  /** The live record holding this content; null once it changed or was deleted. */
  record_id: string | null;
}

export interface AvailabilityStatsDoc {
  _id: string;
  user_id: string;
  kind: 'stats';
  source_type: string;
  resource: string;
  /** Earliest start_time of a record held (deletions do not narrow it). */
  first_time: string;
  /** Latest end_time of a record held. */
  last_time: string;
  /** Live (not deleted) records. */
  records: number;
  /** When a new or changed record of this source and resource was last stored. */
  last_received_at: string;
}

/**
 * A record's earlier version (`v:…`), kept when a change replaced it: what the special-request
 * export (docs/data-lifecycle.md) gives as the record's history. Never read at ingestion.
 */
export interface RecordVersionDoc {
  _id: string;
  user_id: string;
  kind: 'version';
  record_id: string;
  superseded_at: string;
  payload: Record<string, unknown>;
}

export const versionIdOf = (recordId: string, checksum: string) => `v:${recordId}:${checksum}`;

export type RecordKeyDoc = ContentKeyDoc | AvailabilityStatsDoc | RecordVersionDoc;

export const RECORD_KEYS_COLLECTION = 'record_keys';

export function statsIdOf(userId: string, sourceType: string, resource: string): string {
  return `s:${createHash('sha256').update(`${userId}\u0000${sourceType}\u0000${resource}`).digest('hex')}`;
}

/**
 * As every opener declares it. A user's keys are read by id; a user's earlier versions are
 * exported in `_id` order and a user's keys are erased by user.
 */
export const RECORD_KEYS_SPEC: CollectionSpec = { name: RECORD_KEYS_COLLECTION, partitionKey: 'user_id', indexes: [{ fields: { user_id: 1, kind: 1, _id: 1 } }] };

export class RecordKeysRepository {
  private constructor(private readonly keys: Collection<RecordKeyDoc>) {}

  static async open(store: DocumentStore): Promise<RecordKeysRepository> {
    return new RecordKeysRepository(await store.collection<RecordKeyDoc>(RECORD_KEYS_SPEC));
  }

  /** Key documents of one user by id: one keyed read. */
  async byIds(userId: string, ids: string[]): Promise<Map<string, RecordKeyDoc>> {
    if (!ids.length) return new Map();
    return new Map((await this.keys.find({ user_id: userId, _id: { $in: [...new Set(ids)] } })).map((d) => [d._id, d]));
  }

  /** `stored`: ids of key documents read just now (see UpsertSet). */
  upsertSet(docs: RecordKeyDoc[], stored?: string[]): UpsertSet {
    return { collection: RECORD_KEYS_COLLECTION, docs, stored };
  }
}
