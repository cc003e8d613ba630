/**
 * A test-time guard for hot paths: a DocumentStore wrapper that records every query a path
 * issues, and a judge that says, per backend, whether each would be served without scanning a
 * collection that grows with the data:
 * - MongoDB (any server that plans with indexes): a declared index whose keys match the query's
 *   shape: equality fields first, then the sort, then the ranges (index-match.ts), `_id` included.
 * - FerretDB v1 on SQLite: only a filter that pins `_id` (the one condition FerretDB hands to
 *   SQLite, from its `_id` index in deploy/servers' patched build), or one that pins the
 *   collection's `partitionKey` (one table per value there, read whole). Everything else decodes
 *   the whole table.
 *   A collection declared `backlog` is let through there (its size is the work waiting, which
 *   the test checks drains); elsewhere its queries need an index like any other, but for those
 *   that read the whole backlog (an empty filter: its size, its next entries).
 * Inserts and whole-document upserts go by `_id` and are always served.
 * `QueryRecorder.explain` also asks the wrapped store for its own plan of a query, where the
 * store can tell (the SQLite adapter's EXPLAIN QUERY PLAN).
 */
import type { Collection, CollectionSpec, Doc, DocumentStore, Filter, FindOptions, PageOptions, SortSpec, Update, UpsertOptions, UpsertSet } from './document-store.port';
import { pageKeys, pinnedIds, pinnedValue } from './filter-match';
import { constraintOf, servingIndex } from './index-match';
import type { ExplainingDocumentStore, QueryPlan } from './document-store.testing';

export type QueryOp = 'insertOne' | 'findOne' | 'find' | 'findPages' | 'count' | 'findOneAndUpdate' | 'updateMany' | 'bulkUpsert' | 'deleteMany';

export interface IssuedQuery {
  collection: string;
  op: QueryOp;
  filter?: Filter;
  sort?: SortSpec;
  limit?: number;
}

/** `records.find {user_id: eq, local_date: range} sort start_time` */
export function describeQuery(q: IssuedQuery): string {
  const f = q.filter ? ` {${Object.entries(q.filter).map(([k, c]) => `${k}: ${constraintOf(c)}`).join(', ')}}` : '';
  const s = q.sort ? ` sort ${Object.keys(q.sort).join(',')}` : '';
  return `${q.collection}.${q.op}${f}${s}`;
}

export type Backend = 'mongodb' | 'ferretdb';

export interface JudgedQuery {
  query: string;
  /** The first query of this shape, as issued. */
  issued: IssuedQuery;
  mongodb: string | null;
  ferretdb: string | null;
}

/**
 * Why the backend would scan for this query, or null when it is served. `mongodb` is any server
 * that plans with the declared indexes (index-match.ts: the shape must match one of them);
 * `ferretdb` is FerretDB v1, which uses none (see the file's header).
 */
export function scanReason(q: IssuedQuery, spec: CollectionSpec, backend: Backend): string | null {
  if (q.op === 'insertOne' || q.op === 'bulkUpsert' || !q.filter) return null;
  const filter = q.filter;
  if (backend === 'ferretdb') {
    if (spec.backlog || pinnedIds(filter)) return null;
    if (spec.partitionKey && pinnedValue(filter, spec.partitionKey) !== null) return null;
    return 'FerretDB v1 scans the table: the filter pins neither _id nor the partition key';
  }
  // The whole backlog (its size, the next entries in order) is the point of such a read.
  if (spec.backlog && Object.keys(filter).length === 0) return null;
  const served = servingIndex({ filter, sort: q.sort, limit: q.limit }, spec);
  return 'reason' in served ? served.reason : null;
}

class RecordingCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly inner: Collection<T>,
    private readonly name: string,
    private readonly record: (q: IssuedQuery) => void,
  ) {}
  private note(op: QueryOp, filter?: Filter, options: FindOptions = {}): void {
    this.record({ collection: this.name, op, filter, sort: options.sort, limit: options.limit });
  }
  insertOne(doc: T) {
    this.note('insertOne');
    return this.inner.insertOne(doc);
  }
  findOne(filter: Filter, options?: { sort?: SortSpec }) {
    this.note('findOne', filter, { ...options, limit: 1 });
    return this.inner.findOne(filter, options);
  }
  find(filter: Filter, options?: FindOptions) {
    this.note('find', filter, options);
    return this.inner.find(filter, options);
  }
  findPages(filter: Filter, options: PageOptions) {
    // The adapters page in this order (`_id` added last), so an index must give it.
    this.note('findPages', filter, { sort: Object.fromEntries(pageKeys(options.sort)), limit: options.pageSize });
    return this.inner.findPages(filter, options);
  }
  count(filter: Filter) {
    this.note('count', filter);
    return this.inner.count(filter);
  }
  findOneAndUpdate(filter: Filter, update: Update, options?: { upsert?: boolean; sort?: SortSpec }) {
    this.note('findOneAndUpdate', filter, { sort: options?.sort, limit: 1 });
    return this.inner.findOneAndUpdate(filter, update, options);
  }
  updateMany(filter: Filter, update: Update) {
    this.note('updateMany', filter);
    return this.inner.updateMany(filter, update);
  }
  bulkUpsert(docs: T[], options?: UpsertOptions) {
    this.note('bulkUpsert');
    return this.inner.bulkUpsert(docs, options);
  }
  deleteMany(filter: Filter) {
    this.note('deleteMany', filter);
    return this.inner.deleteMany(filter);
  }
}

/** Wraps a store; `take()` hands over what was issued since the last call. */
export class QueryRecorder implements DocumentStore {
  private log: IssuedQuery[] = [];
  readonly specs = new Map<string, CollectionSpec>();
  /** Present when the wrapped store has it (callers choose their write path by its presence). */
  readonly upsertAtomically?: (sets: UpsertSet[]) => Promise<void>;
  constructor(private readonly inner: DocumentStore) {
    const atomic = inner.upsertAtomically?.bind(inner);
    if (atomic) {
      this.upsertAtomically = (sets) => {
        for (const set of sets) this.log.push({ collection: set.collection, op: 'bulkUpsert' });
        return atomic(sets);
      };
    }
  }

  async collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>> {
    this.specs.set(spec.name, spec);
    return new RecordingCollection<T>(await this.inner.collection<T>(spec), spec.name, (q) => this.log.push(q));
  }
  /** How many documents each collection declared `backlog` holds now. */
  async backlogs(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const [name, spec] of this.specs) if (spec.backlog) out[name] = await (await this.inner.collection(spec)).count({});
    return out;
  }

  take(): IssuedQuery[] {
    const out = this.log;
    this.log = [];
    return out;
  }
  /** Each distinct query shape issued since the last `take()`, with what each backend thinks of it. */
  judge(): JudgedQuery[] {
    const seen = new Map<string, JudgedQuery>();
    for (const q of this.take()) {
      const spec = this.specs.get(q.collection) ?? { name: q.collection };
      const query = describeQuery(q);
      if (!seen.has(query)) seen.set(query, { query, issued: q, mongodb: scanReason(q, spec, 'mongodb'), ferretdb: scanReason(q, spec, 'ferretdb') });
    }
    return [...seen.values()];
  }
  /**
   * The wrapped store's own plan of a recorded query, or null where the store cannot tell (no
   * planner to ask, or a write by `_id` that needs none).
   */
  async explain(q: IssuedQuery): Promise<QueryPlan | null> {
    const inner = this.inner as Partial<ExplainingDocumentStore>;
    if (typeof inner.explainForTests !== 'function' || !q.filter || q.op === 'insertOne' || q.op === 'bulkUpsert') return null;
    if (this.specs.get(q.collection)?.backlog && Object.keys(q.filter).length === 0) return null;
    return inner.explainForTests({ collection: q.collection, op: q.op, filter: q.filter, sort: q.sort, limit: q.limit });
  }
  healthy() {
    return this.inner.healthy();
  }
  close() {
    return this.inner.close();
  }
}
