/**
 * Notification batches over the document-store port. Without transactions, every change that two
 * replicas could race on is one conditional findOneAndUpdate: attempt records need the attempt
 * count they were computed from (optimistic concurrency). The claim of a try is an insert
 * (delivery-claims.ts), since FerretDB runs a conditional update as a read and then a write.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Collection, DocumentStore, Filter } from '@wellstream/store';
import type { Attempt, Batch, BatchState } from './batch';
import { DeliveryClaims } from './delivery-claims';

/**
 * What is stored: a batch's records deflated into one base64 field. The push queue keeps its copy
 * of each record compact (about a third of the JSON); only delivery and the detail view unpack it.
 * Batches stored before (with a plain `items` list) read as they are.
 */
type StoredBatch = Omit<Batch, 'items'> & { items_packed?: string; items?: Batch['items'] };

function pack(batch: Batch): StoredBatch {
  const { items, ...rest } = batch;
  return { ...rest, items_packed: deflateRawSync(JSON.stringify(items)).toString('base64') };
}

function unpack(doc: StoredBatch): Batch {
  const { items_packed, items, ...rest } = doc;
  return { ...rest, items: items_packed ? (JSON.parse(inflateRawSync(Buffer.from(items_packed, 'base64')).toString('utf8')) as Batch['items']) : (items ?? []) };
}

const unpackOrNull = (doc: StoredBatch | null): Batch | null => (doc ? unpack(doc) : null);

/** A batch as the due-list gives it: everything but its records (the claim hands those over). */
export type DueBatch = Omit<Batch, 'items'>;

export interface BatchListQuery {
  organizationId: string;
  fromMs?: number;
  /** Exclusive upper bound. */
  toMs?: number;
  status?: 'success' | 'failure';
  offset: number;
  limit: number;
}

export class BatchRepository {
  private constructor(
    private readonly batches: Collection<StoredBatch>,
    private readonly claims: DeliveryClaims,
  ) {}

  static async open(store: DocumentStore): Promise<BatchRepository> {
    return new BatchRepository(
      await store.collection<StoredBatch>({
        name: 'notification_batches',
        indexes: [
          // The list (newest first, by first try), and all of an organization's in pages.
          { fields: { organization_id: 1, list_ms: -1, seq: -1 } },
          { fields: { organization_id: 1, list_ms: -1, _id: -1 } },
          // The due-delivery poll, oldest due first; the retention purge of finished batches.
          { fields: { state: 1, next_attempt_ms: 1, seq: 1 } },
          { fields: { state: 1, list_ms: 1 } },
          { fields: { organization_id: 1, state: 1, attempt_count: 1, seq: 1 } },
        ],
      }),
      await DeliveryClaims.open(store),
    );
  }

  /**
   * Retention: finished batches (SUCCESS or FAILURE, nothing scheduled) first tried before `ms` go,
   * items and attempts with them; at most `limit` per call, so a purge is a bounded piece of work.
   */
  async purgeFinishedBefore(ms: number, limit: number): Promise<number> {
    const old = await this.batches.find({ state: { $in: ['SUCCESS', 'FAILURE'] }, list_ms: { $lt: ms } }, { limit });
    return old.length ? this.batches.deleteMany({ _id: { $in: old.map((b) => b._id) } }) : 0;
  }

  /** Every batch of an organization, a page at a time (the special-request export and erasure read them). */
  async *pagesOfOrganization(organizationId: string, pageSize = 50): AsyncIterable<Batch[]> {
    for await (const page of this.batches.findPages({ organization_id: organizationId }, { sort: { list_ms: -1 }, pageSize })) yield page.map(unpack);
  }

  /** Erasure: the batch keeps only `items`; a batch left with none goes. Returns whether it went. */
  async keepItems(batch: Batch, items: Batch['items']): Promise<'kept' | 'removed'> {
    if (items.length === 0) {
      await this.batches.deleteMany({ _id: batch._id });
      return 'removed';
    }
    const { items_packed } = pack({ ...batch, items });
    await this.batches.findOneAndUpdate({ _id: batch._id }, { $set: { items_packed }, $unset: { items: 1 } });
    return 'kept';
  }

  /**
   * Takes items of gone users out of the batch: it keeps `items` (with their pending ids) and counts
   * `withheld` more on `withheld_items`; a batch left with none goes. Only if no other withholding
   * changed the batch since it was read (`changed`: read it again), so no item is counted twice.
   */
  async withhold(batch: Batch, items: Batch['items'], itemIds: string[], withheld: number): Promise<'kept' | 'removed' | 'changed'> {
    const unchanged: Filter<StoredBatch> = { _id: batch._id, withheld_items: batch.withheld_items === undefined ? { $exists: false } : batch.withheld_items };
    if (items.length === 0) return (await this.batches.deleteMany(unchanged)) > 0 ? 'removed' : 'changed';
    const { items_packed } = pack({ ...batch, items });
    const updated = await this.batches.findOneAndUpdate(unchanged, { $set: { items_packed, item_ids: itemIds, withheld_items: (batch.withheld_items ?? 0) + withheld }, $unset: { items: 1 } });
    return updated ? 'kept' : 'changed';
  }

  /** Throws DuplicateKeyError when a batch with this id exists (a formation re-run after a crash). */
  insert(batch: Batch): Promise<void> {
    return this.batches.insertOne(pack(batch));
  }

  async byId(id: string): Promise<Batch | null> {
    return unpackOrNull(await this.batches.findOne({ _id: id }));
  }

  async inOrganization(organizationId: string, id: string): Promise<Batch | null> {
    return unpackOrNull(await this.batches.findOne({ _id: id, organization_id: organizationId }));
  }

  async list(q: BatchListQuery): Promise<{ batches: Batch[]; total: number }> {
    const filter: Filter = { organization_id: q.organizationId };
    const range: Record<string, number> = {};
    if (q.fromMs !== undefined) range.$gte = q.fromMs;
    if (q.toMs !== undefined) range.$lt = q.toMs;
    if (Object.keys(range).length) filter.list_ms = range;
    if (q.status === 'success') filter.state = 'SUCCESS';
    if (q.status === 'failure') filter.state = { $ne: 'SUCCESS' };
    const [batches, total] = await Promise.all([
      this.batches.find(filter, { sort: { list_ms: -1, seq: -1 }, skip: q.offset, limit: q.limit }),
      this.batches.count(filter),
    ]);
    return { batches: batches.map(unpack), total };
  }

  /** Batches whose next try is due and that nobody is sending, oldest due first. */
  due(now: number, limit: number): Promise<DueBatch[]> {
    return this.batches.find(
      { state: 'PENDING', next_attempt_ms: { $lte: now }, lease_until_ms: { $lte: now } },
      { sort: { next_attempt_ms: 1, seq: 1 }, limit },
    );
  }

  /** Whether an earlier batch of the organization still waits for its first try (first tries go in order). */
  async hasEarlierUnattempted(organizationId: string, seq: number): Promise<boolean> {
    return (await this.batches.count({ organization_id: organizationId, state: 'PENDING', attempt_count: 0, seq: { $lt: seq } })) > 0;
  }

  /**
   * Takes the right to send the next try, or null when another replica has it or it is no longer
   * due. Of replicas racing for it, one inserts the claim of the batch's next key; it then marks
   * the batch (lease, and one more claim taken, so a later taker with an older read of the batch
   * fails here) and drops the claim's documents.
   */
  async claim(id: string, now: number, leaseMs: number, owner: string): Promise<Batch | null> {
    const read = await this.batches.findOne({ _id: id });
    if (!read || read.state !== 'PENDING' || read.next_attempt_ms === null || read.next_attempt_ms > now || read.lease_until_ms > now) return null;
    const taken = read.claims_taken ?? 0;
    const claim = await this.claims.take(`${id}#${taken}`, owner, now, leaseMs);
    if (!claim) return null;
    try {
      return unpackOrNull(
        await this.batches.findOneAndUpdate(
          { _id: id, claims_taken: read.claims_taken === undefined ? { $exists: false } : taken, state: 'PENDING', next_attempt_ms: { $lte: now }, lease_until_ms: { $lte: now } },
          { $set: { lease_until_ms: now + leaseMs, lease_owner: owner, claims_taken: taken + 1 } },
        ),
      );
    } finally {
      // A document left behind is never taken again (the batch's count moved past its key).
      await this.claims.drop(claim).catch(() => undefined);
    }
  }

  /** Gives a claim back without a recorded try (shutdown interrupted the send). */
  async release(id: string, owner: string): Promise<void> {
    await this.batches.updateMany({ _id: id, lease_owner: owner }, { $set: { lease_until_ms: 0, lease_owner: null } });
  }

  /**
   * Appends a try and sets what follows from it in ONE write: a success is final at once (so no
   * later pass can send the batch again), a failure schedules the next try or ends as FAILURE.
   */
  async recordAttempt(
    id: string,
    attempt: Attempt,
    succeeded: boolean,
    attemptMs: number,
    next: (roundAttempts: number) => number | null,
  ): Promise<Batch | null> {
    for (let i = 0; i < 5; i++) {
      const doc = await this.batches.findOne({ _id: id });
      if (!doc) return null;
      const roundAttempts = doc.round_attempts + 1;
      const success = succeeded || doc.state === 'SUCCESS';
      const nextMs = success ? null : next(roundAttempts);
      const state: BatchState = success ? 'SUCCESS' : nextMs === null ? 'FAILURE' : 'PENDING';
      const first = doc.first_attempt_ms ?? attemptMs;
      const updated = await this.batches.findOneAndUpdate(
        { _id: id, attempt_count: doc.attempt_count },
        {
          $set: {
            attempts: [...doc.attempts, attempt],
            attempt_count: doc.attempt_count + 1,
            first_attempt_ms: first,
            list_ms: first,
            last_attempt_ms: attemptMs,
            round_attempts: roundAttempts,
            state,
            next_attempt_ms: nextMs,
            lease_until_ms: 0,
            lease_owner: null,
          },
        },
      );
      if (updated) return unpack(updated);
    }
    throw new Error(`could not record an attempt of batch ${id}: too much contention`);
  }

  /** Starts a new round of tries now, unless a try is in flight. Null when the batch is leased. */
  requeue(organizationId: string, id: string, now: number): Promise<Batch | null> {
    return this.findAndRequeue({ _id: id, organization_id: organizationId, lease_until_ms: { $lte: now } }, now);
  }

  private async findAndRequeue(filter: Filter, now: number): Promise<Batch | null> {
    const doc = await this.batches.findOne(filter);
    if (!doc) return null;
    return unpackOrNull(
      await this.batches.findOneAndUpdate(
        { ...filter, round: doc.round },
        { $set: { state: 'PENDING', round: doc.round + 1, round_attempts: 0, next_attempt_ms: now } },
      ),
    );
  }
}
