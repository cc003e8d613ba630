/**
 * A test-time guard for hot paths: a DocumentStore wrapper that records every query a path
 * issues, and a judge that says, per backend, whether each would be served without scanning a
 * collection that grows with the data:
 * - MongoDB: an index whose first field the filter constrains (or, for an empty filter with a
 *   limit, whose first field is the sort), `_id` included.
 * - FerretDB v1 on SQLite: only a filter that pins `_id` (the adapter turns it into `{_id}`
 *   lookups, the one filter FerretDB hands to SQLite), or one that pins the collection's
 *   `partitionKey` (one small table per value there). Everything else decodes the whole table.
 * Inserts and whole-document upserts go by `_id` and are always served, and so is anything on a
 * collection declared `backlog` (its size is the work waiting, which the test checks drains).
 */
import type { Collection, CollectionSpec, Doc, DocumentStore, Filter, FindOptions, Operators, PageOptions, SortSpec, Update, UpsertSet } from './document-store.port';
import { pinnedIds, pinnedValue } from './filter-match';

export type QueryOp = 'insertOne' | 'findOne' | 'find' | 'findPages' | 'count' | 'findOneAndUpdate' | 'updateMany' | 'bulkUpsert' | 'deleteMany';

export interface IssuedQuery {
  collection: string;
  op: QueryOp;
  filter?: Filter;
  sort?: SortSpec;
  limit?: number;
}

type Constraint = 'eq' | 'in' | 'range' | 'other';

function constraintOf(cond: Filter[string]): Constraint {
  if (cond === null || typeof cond !== 'object') return 'eq';
  const ops = Object.keys(cond as Operators);
  if (ops.includes('$eq')) return 'eq';
  if (ops.includes('$in')) return 'in';
  if (ops.some((o) => ['$gt', '$gte', '$lt', '$lte'].includes(o))) return 'range';
  return 'other';
}

/** `records.find {user_id: eq, local_date: range} sort start_time` */
export function describeQuery(q: IssuedQuery): string {
  const f = q.filter ? ` {${Object.entries(q.filter).map(([k, c]) => `${k}: ${constraintOf(c)}`).join(', ')}}` : '';
  const s = q.sort ? ` sort ${Object.keys(q.sort).join(',')}` : '';
  return `${q.collection}.${q.op}${f}${s}`;
}

export type Backend = 'mongodb' | 'ferretdb';

/** Why the backend would scan for this query, or null when it is served. */
export function scanReason(q: IssuedQuery, spec: CollectionSpec, backend: Backend): string | null {
  if (q.op === 'insertOne' || q.op === 'bulkUpsert' || !q.filter || spec.backlog) return null;
  const filter = q.filter;
  if (backend === 'ferretdb') {
    if (pinnedIds(filter)) return null;
    if (spec.partitionKey && pinnedValue(filter, spec.partitionKey) !== null) return null;
    return 'FerretDB v1 scans the table: the filter pins neither _id nor the partition key';
  }
  const constrained = (field: string) => field in filter && constraintOf(filter[field]) !== 'other';
  const firstFields = ['_id', ...(spec.indexes ?? []).map((ix) => Object.keys(ix.fields)[0])];
  if (firstFields.some(constrained)) return null;
  const sortFirst = q.sort ? Object.keys(q.sort)[0] : undefined;
  if (Object.keys(filter).length === 0 && q.limit !== undefined && sortFirst && firstFields.includes(sortFirst)) return null;
  return `no index starts with a field the filter constrains (indexes: ${firstFields.join(', ')})`;
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
    this.note('findPages', filter, { sort: options.sort, limit: options.pageSize });
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
  bulkUpsert(docs: T[]) {
    this.note('bulkUpsert');
    return this.inner.bulkUpsert(docs);
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
  judge(): { query: string; mongodb: string | null; ferretdb: string | null }[] {
    const seen = new Map<string, { query: string; mongodb: string | null; ferretdb: string | null }>();
    for (const q of this.take()) {
      const spec = this.specs.get(q.collection) ?? { name: q.collection };
      const query = describeQuery(q);
      if (!seen.has(query)) seen.set(query, { query, mongodb: scanReason(q, spec, 'mongodb'), ferretdb: scanReason(q, spec, 'ferretdb') });
    }
    return [...seen.values()];
  }
  healthy() {
    return this.inner.healthy();
  }
  close() {
    return this.inner.close();
  }
}
