/**
 * The document-store port. Services write their repositories once against it; two adapters back
 * it: SQLite (embedded) and MongoDB through mongoose (distributed, also FerretDB). Filters and
 * updates are a small subset of MongoDB's syntax that both can run exactly (see README).
 */

export type Scalar = string | number | boolean | null;

export interface Operators {
  $eq?: Scalar;
  $ne?: Scalar;
  $gt?: Scalar;
  $gte?: Scalar;
  $lt?: Scalar;
  $lte?: Scalar;
  $in?: Scalar[];
  $nin?: Scalar[];
  $exists?: boolean;
}

type Leaf = Scalar | undefined | Date | readonly unknown[];

/**
 * The field paths of a document type: its keys, and dotted paths into nested objects (never into
 * arrays, which filters cannot address). A misspelled field is a compile error, not a query that
 * silently matches nothing.
 */
export type FieldPath<T> = T extends Leaf
  ? never
  : { [K in keyof T & string]: NonNullable<T[K]> extends Leaf ? K : K | `${K}.${FieldPath<NonNullable<T[K]>>}` }[keyof T & string];

/** Field paths of `T` → value or operators; all must hold. Without `T`, any plain field name. */
export type Filter<T = Record<string, unknown>> = { [P in FieldPath<T>]?: Scalar | Operators };

export interface Update {
  $set?: Record<string, unknown>;
  $unset?: Record<string, '' | true | 1>;
  $inc?: Record<string, number>;
  /** Applied only when an upsert inserts. */
  $setOnInsert?: Record<string, unknown>;
}

export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
}

export interface PageOptions {
  /**
   * The order of the whole result. Every field must be present (not null) in every match; `_id`
   * is added as the last key when absent, so the order is total. All keys go the same direction.
   */
  sort: SortSpec;
  /** Documents per page: each page is one bounded read. */
  pageSize: number;
}

export interface IndexSpec {
  fields: Record<string, 1 | -1>;
  unique?: boolean;
}

export interface CollectionSpec {
  name: string;
  indexes?: IndexSpec[];
  /**
   * A field every hot query pins by equality (e.g. `user_id`), whose value a document's `_id`
   * determines. Where the backend has no usable secondary index (FerretDB v1 on SQLite scans a
   * table for every query), the adapter keeps one table per value, so a query touches one
   * partition whatever the total size; elsewhere it is only a hint (declare the index too).
   * Unique indexes hold within a partition there.
   */
  partitionKey?: string;
  /**
   * Documents leave once handled (a queue, an outbox): the collection holds a backlog, not the
   * history, so a query that scans it costs the backlog, not the data stored so far.
   */
  backlog?: boolean;
}

export interface Doc {
  _id: string;
}

export interface Collection<T extends Doc> {
  /** Throws DuplicateKeyError when a unique index (or _id) is violated. */
  insertOne(doc: T): Promise<void>;
  findOne(filter: Filter<T>, options?: { sort?: SortSpec }): Promise<T | null>;
  find(filter: Filter<T>, options?: FindOptions): Promise<T[]>;
  /**
   * A large result in pages of at most `pageSize`, in `sort` order: each page is one short read
   * (SQLite: a keyset query from the last key; MongoDB: the next batch of one cursor), so a caller
   * can yield to other requests between pages instead of holding the process for the whole read.
   * Documents written meanwhile may or may not appear; none appears twice.
   */
  findPages(filter: Filter<T>, options: PageOptions): AsyncIterable<T[]>;
  count(filter: Filter<T>): Promise<number>;
  /** Updates the first match (or inserts with `upsert`); resolves to the document after the update, or null. */
  findOneAndUpdate(filter: Filter<T>, update: Update, options?: { upsert?: boolean; sort?: SortSpec }): Promise<T | null>;
  updateMany(filter: Filter<T>, update: Update): Promise<number>;
  /** Replaces whole documents by _id, inserting missing ones; one round trip. */
  bulkUpsert(docs: T[], options?: UpsertOptions): Promise<void>;
  deleteMany(filter: Filter<T>): Promise<number>;
}

export interface UpsertOptions {
  /**
   * Ids of documents the caller has just read, so most likely stored: a backend that inserts a
   * batch first and replaces only what collided (FerretDB) replaces these at once instead, beside
   * the insert, rather than after it. A hint only: the result is the same either way.
   */
  stored?: string[];
}

/** Whole documents to replace by _id (inserting missing ones) in one collection. */
export interface UpsertSet extends UpsertOptions {
  collection: string;
  docs: Doc[];
}

export interface DocumentStore {
  collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>>;
  /**
   * Upserts into several collections (opened before) in one transaction: all stored or none.
   * Only where the backend has such transactions cheaply (SQLite); absent elsewhere, where callers
   * order their writes instead (the outbox's prepared/ready steps).
   */
  upsertAtomically?(sets: UpsertSet[]): Promise<void>;
  healthy(): Promise<boolean>;
  close(): Promise<void>;
}

export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    message = 'duplicate key',
  ) {
    super(`${collection}: ${message}`);
    this.name = 'DuplicateKeyError';
  }
}

export function assertTestTarget(name: string): void {
  if (!/test/i.test(name)) throw new Error(`refusing to drop "${name}": its name does not say it is a test target`);
}

/** Field paths are interpolated into SQL/JSON paths, so only plain names are allowed. */
export function assertFieldPath(path: string): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(path)) throw new Error(`invalid field path: ${path}`);
}
