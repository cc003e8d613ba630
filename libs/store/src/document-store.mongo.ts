/**
 * The distributed document store: MongoDB through mongoose, one database per service
 * (`<prefix>_<service>`), one collection per port collection. Runs on MongoDB and on FerretDB v1,
 * so it uses only what both implement (no transactions, no TTL/partial indexes, no projections on
 * findOneAndUpdate). Queries go through the driver directly: callers get plain objects, and
 * nothing is cast behind their back.
 *
 * FerretDB v1 on SQLite is a different machine underneath, and the adapter adapts to it:
 * - It hands SQLite only a filter on `_id`; every other filter is run by decoding every document
 *   of the table, so a collection declared with a `partitionKey` is kept as one table per key
 *   value there.
 * - As built by deploy/servers (ferretdb/sqlite-id-index.patch) it serves `_id` equality and
 *   `$in`, also beside other fields, from its `_id` index in one query. Upstream v1.24.2 uses
 *   the index for nothing and pushes down only a filter that is exactly `{_id: "<string>"}`; on
 *   that server (found by explaining an `_id` `$in` once) a filter that pins `_id` is run as one
 *   `{_id}` lookup per id and the rest is checked here (filter-match.ts).
 * - One database is one SQLite file with one writer at a time, and writers that overlap wait in
 *   SQLite's busy handler, which sleeps 1 to 100 ms between tries (two 100-record requests and the
 *   outbox relay overlapping cost more waiting than writing). So this process's writes to the
 *   database go one at a time (WriteLane); reads stay concurrent.
 * - It runs findAndModify/update as read-then-write without a transaction, so concurrent `$inc`s
 *   on one document could be lost (MongoDB is atomic per document). Read-modify-write calls are
 *   therefore serialised per collection within the process; across processes only MongoDB gives
 *   the guarantee (docker-compose and production use MongoDB).
 */
import { createHash } from 'node:crypto';
import mongoose, { Connection, Schema } from 'mongoose';
import { applyUpdate, seedFromFilter } from './apply-update';
import {
  assertFieldPath,
  assertTestTarget,
  Collection,
  CollectionSpec,
  Doc,
  DuplicateKeyError,
  Filter,
  FindOptions,
  PageOptions,
  SortSpec,
  Update,
  UpsertOptions,
} from './document-store.port';
import type { TestableDocumentStore } from './document-store.testing';
import { compareBySort, matchesFilter, pageKeys, pinnedIds, pinnedValue } from './filter-match';
import { NO_LANE, WriteLane } from './write-lane';

type Raw = Record<string, unknown>;
type DriverCollection = mongoose.mongo.Collection<Raw>;
type DriverDb = mongoose.mongo.Db;

/** Concurrent upserts of one new _id can collide on insert; the loser retries as an update. */
const UPSERT_RETRIES = 3;

function isDuplicateKey(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const err = e as { code?: number; message?: string; writeErrors?: { code?: number; err?: { code?: number } }[] };
  if (err.code === 11000 || (err.writeErrors ?? []).some((w) => w.code === 11000 || w.err?.code === 11000)) return true;
  // FerretDB v1 (SQLite backend) reports a unique violation on update as InternalError (code 1).
  return err.code === 1 && /UNIQUE constraint failed/.test(err.message ?? '');
}

function checkFilter(filter: Filter): Filter {
  for (const k of Object.keys(filter)) assertFieldPath(k);
  return filter;
}

function checkUpdate(update: Update): Update {
  for (const part of [update.$set, update.$unset, update.$inc, update.$setOnInsert]) for (const k of Object.keys(part ?? {})) assertFieldPath(k);
  // Drop empty operators: MongoDB rejects `{$set: {}}`.
  return Object.fromEntries(Object.entries(update).filter(([, v]) => v && Object.keys(v).length > 0)) as Update;
}

/**
 * Where a collection's documents live: one driver collection, or (FerretDB, `partitionKey`) one
 * per key value, named `<name>__p<hash of the value>` and created by the first insert.
 */
class Placement {
  private readonly prepared = new Map<string, Promise<void>>();
  constructor(
    private readonly db: DriverDb,
    private readonly spec: CollectionSpec,
    private readonly partitioned: boolean,
  ) {}

  private physical(value: string): DriverCollection {
    const name = `${this.spec.name}__p${createHash('sha256').update(value).digest('hex').slice(0, 24)}`;
    return this.db.collection<Raw>(name);
  }

  /** The collections a filter may touch: one, unless it leaves the partition key open. */
  async forFilter(filter: Filter): Promise<DriverCollection[]> {
    if (!this.partitioned) return [this.db.collection<Raw>(this.spec.name)];
    const value = pinnedValue(filter, this.spec.partitionKey!);
    if (value !== null) return [this.physical(value)];
    const prefix = `${this.spec.name}__p`;
    const names = (await this.db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name).filter((n) => n.startsWith(prefix));
    return names.map((n) => this.db.collection<Raw>(n));
  }

  /** The collection a document belongs in (unique indexes made on first use of a partition). */
  async forDoc(doc: Raw): Promise<DriverCollection> {
    if (!this.partitioned) return this.db.collection<Raw>(this.spec.name);
    const value = doc[this.spec.partitionKey!];
    if (typeof value !== 'string') throw new Error(`${this.spec.name}: a document needs a string ${this.spec.partitionKey}`);
    const coll = this.physical(value);
    let ready = this.prepared.get(coll.collectionName);
    if (!ready) {
      const unique = (this.spec.indexes ?? []).filter((ix) => ix.unique);
      ready = Promise.all(unique.map((ix) => coll.createIndex(ix.fields, { unique: true }))).then(() => undefined);
      this.prepared.set(coll.collectionName, ready);
      ready.catch(() => this.prepared.delete(coll.collectionName));
    }
    await ready;
    return coll;
  }
}

class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly place: Placement,
    private readonly name: string,
    /** FerretDB: read-modify-write calls of this collection one at a time (a WriteLane held until each is done). */
    private readonly writes: Pick<WriteLane, 'run'>,
    private readonly ferret: boolean,
    /**
     * Upstream FerretDB: filters other than `{_id: "x"}` are run by decoding the whole table, so
     * up to this many pinned ids are looked up one by one instead (0: never).
     */
    private readonly lookupLimit: number,
    /** Every write of this database, one at a time (FerretDB; see WriteLane). */
    private readonly lane: Pick<WriteLane, 'run'>,
  ) {}

  /** The ids to look up one by one, or null to send the filter as it is. */
  private lookups(filter: Filter): string[] | null {
    if (this.lookupLimit === 0) return null;
    const ids = pinnedIds(filter);
    return ids && ids.length <= this.lookupLimit ? ids : null;
  }

  private async translate<R>(work: () => Promise<R>): Promise<R> {
    try {
      return await work();
    } catch (e) {
      if (isDuplicateKey(e)) throw new DuplicateKeyError(this.name);
      throw e;
    }
  }

  async insertOne(doc: T): Promise<void> {
    const coll = await this.place.forDoc(doc as unknown as Raw);
    await this.translate(() => this.lane.run(() => coll.insertOne(structuredClone(doc) as unknown as Raw)));
  }

  async findOne(filter: Filter, options: { sort?: SortSpec } = {}): Promise<T | null> {
    return (await this.read(filter, { sort: options.sort, limit: 1 }))[0] ?? null;
  }

  find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.read(filter, options);
  }

  async *findPages(filter: Filter, options: PageOptions): AsyncIterable<T[]> {
    const sort = Object.fromEntries(pageKeys(options.sort));
    const size = Math.max(1, Math.floor(options.pageSize));
    checkFilter(filter);
    const colls = await this.place.forFilter(filter);
    if (colls.length !== 1 || this.lookups(filter)) {
      // Spread over partitions or looked up by id: merged in memory by locate(), then cut.
      const all = await this.read(filter, { sort });
      for (let i = 0; i < all.length; i += size) yield all.slice(i, i + size);
      return;
    }
    // One cursor, one server-side scan: the driver fetches (and decodes) `size` documents a batch.
    const cursor = colls[0].find(filter as Raw).sort(sort).batchSize(size);
    try {
      let page: T[] = [];
      for await (const doc of cursor) {
        page.push(doc as unknown as T);
        if (page.length === size) {
          yield page;
          page = [];
        }
      }
      if (page.length) yield page;
    } finally {
      await cursor.close();
    }
  }

  /** Each match with the collection it lives in. */
  private async locate(filter: Filter, options: FindOptions): Promise<{ doc: T; coll: DriverCollection }[]> {
    // MongoDB reads limit 0 as "no limit"; the port means "nothing".
    if (options.limit !== undefined && Math.floor(options.limit) <= 0) return [];
    checkFilter(filter);
    const colls = await this.place.forFilter(filter);
    const ids = this.lookups(filter);
    const byIdAlone = Object.keys(filter).length === 1 && typeof filter._id === 'string';
    if (colls.length === 1 && (!ids || byIdAlone)) {
      const cursor = colls[0].find(filter as Raw);
      if (options.sort) cursor.sort(options.sort);
      if (options.skip) cursor.skip(Math.max(0, Math.floor(options.skip)));
      if (options.limit !== undefined) cursor.limit(Math.floor(options.limit));
      return ((await cursor.toArray()) as unknown as T[]).map((doc) => ({ doc, coll: colls[0] }));
    }
    const found: { doc: T; coll: DriverCollection }[] = [];
    for (const coll of colls) {
      const docs = ids
        ? (await Promise.all(ids.map((id) => coll.findOne({ _id: id } as Raw)))).filter((d) => d !== null && matchesFilter(d, filter))
        : await coll.find(filter as Raw).toArray();
      for (const doc of docs) found.push({ doc: doc as unknown as T, coll });
    }
    if (options.sort) {
      const cmp = compareBySort(options.sort);
      found.sort((x, y) => cmp(x.doc, y.doc));
    }
    const from = Math.max(0, Math.floor(options.skip ?? 0));
    return found.slice(from, options.limit === undefined ? undefined : from + Math.floor(options.limit));
  }

  private async read(filter: Filter, options: FindOptions): Promise<T[]> {
    return (await this.locate(filter, options)).map((m) => m.doc);
  }

  async count(filter: Filter): Promise<number> {
    checkFilter(filter);
    const colls = await this.place.forFilter(filter);
    if (colls.length === 1 && !this.lookups(filter)) return colls[0].countDocuments(filter as Raw);
    return (await this.locate(filter, {})).length;
  }

  findOneAndUpdate(filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec } = {}): Promise<T | null> {
    const u = checkUpdate(update);
    checkFilter(filter);
    if (this.ferret) return this.writes.run(() => this.findThenUpdate(filter, u, options));
    return this.findOneAndUpdateNative(filter, u, options);
  }

  /** MongoDB: one atomic command. */
  private async findOneAndUpdateNative(filter: Filter, u: Update, options: { upsert?: boolean; sort?: SortSpec }): Promise<T | null> {
    const [coll] = await this.place.forFilter(filter);
    for (let attempt = 0; ; attempt++) {
      try {
        return (await coll.findOneAndUpdate(filter as Raw, u as Raw, {
          upsert: options.upsert ?? false,
          returnDocument: 'after',
          sort: options.sort,
          includeResultMetadata: false,
        })) as unknown as T | null;
      } catch (e) {
        if (!(options.upsert && isDuplicateKey(e) && attempt < UPSERT_RETRIES)) {
          if (isDuplicateKey(e)) throw new DuplicateKeyError(this.name);
          throw e;
        }
      }
    }
  }

  /**
   * FerretDB (inside the write queue): find the match the cheap way, update it by `_id` alone,
   * and insert an upsert here (FerretDB also drops `$setOnInsert` in an upsert).
   */
  private async findThenUpdate(filter: Filter, u: Update, options: { upsert?: boolean; sort?: SortSpec }): Promise<T | null> {
    const [match] = await this.locate(filter, { sort: options.sort, limit: 1 });
    if (match) {
      const { $setOnInsert: _ignored, ...onUpdate } = u;
      if (Object.keys(onUpdate).length === 0) return match.doc;
      return this.translate(
        async () =>
          (await this.lane.run(() => match.coll.findOneAndUpdate({ _id: match.doc._id } as Raw, onUpdate as Raw, { returnDocument: 'after', includeResultMetadata: false }))) as unknown as T | null,
      );
    }
    if (!options.upsert) return null;
    const doc = applyUpdate(seedFromFilter(filter), u, true) as unknown as T;
    if (typeof doc._id !== 'string') throw new Error(`${this.name}: an upsert needs an _id in the filter or $setOnInsert`);
    // A document with this _id that did not match: MongoDB's upsert would collide on insert too.
    await this.insertOne(doc);
    return doc;
  }

  async updateMany(filter: Filter, update: Update): Promise<number> {
    const u = checkUpdate(update);
    if (Object.keys(u).length === 0) return this.count(filter);
    checkFilter(filter);
    return this.writes.run(async () => {
      if (!this.lookups(filter)) {
        let matched = 0;
        for (const coll of await this.place.forFilter(filter)) matched += (await this.translate(() => this.lane.run(() => coll.updateMany(filter as Raw, u as Raw)))).matchedCount;
        return matched;
      }
      const matches = await this.locate(filter, {});
      for (const m of matches) await this.translate(() => this.lane.run(() => m.coll.updateOne({ _id: m.doc._id } as Raw, u as Raw)));
      return matches.length;
    });
  }

  async bulkUpsert(docs: T[], options: UpsertOptions = {}): Promise<void> {
    if (docs.length === 0) return;
    // By collection name: the driver hands out a new handle per call, so handles never group.
    const groups = new Map<string, { coll: DriverCollection; docs: T[] }>();
    for (const d of docs) {
      const coll = await this.place.forDoc(d as unknown as Raw);
      const group = groups.get(coll.collectionName) ?? groups.set(coll.collectionName, { coll, docs: [] }).get(coll.collectionName)!;
      group.docs.push(d);
    }
    // One write per partition, all at once: each is whole documents by _id, in any order.
    const stored = new Set(options.stored ?? []);
    await Promise.all(
      [...groups.values()].map(({ coll, docs: group }) => this.translate(() => (this.ferret ? this.insertOrReplace(coll, group, stored) : this.replaceAll(coll, group)))),
    );
  }

  /** Documents the caller read just now are replaced beside the insert of the others, not after it fails. */
  private async insertOrReplace(coll: DriverCollection, docs: T[], stored: Set<string>): Promise<void> {
    const known = stored.size ? docs.filter((d) => stored.has(d._id)) : [];
    if (known.length === 0) return this.insertThenReplace(coll, docs);
    const fresh = docs.filter((d) => !stored.has(d._id));
    await Promise.all([this.replaceAll(coll, known), fresh.length ? this.insertThenReplace(coll, fresh) : undefined]);
  }

  private async replaceAll(coll: DriverCollection, docs: T[]): Promise<void> {
    await this.lane.run(() => coll.bulkWrite(
      docs.map((d) => ({ replaceOne: { filter: { _id: d._id } as Raw, replacement: structuredClone(d) as unknown as Raw, upsert: true } })),
      { ordered: true },
    ));
  }

  /**
   * FerretDB runs each replace as a query plus a write, but inserts a batch in one statement: new
   * documents (the usual case: new records, outbox entries) go in at once, and only those that
   * collided are replaced, in their original order.
   */
  private async insertThenReplace(coll: DriverCollection, docs: T[]): Promise<void> {
    const collided = new Set<number>();
    try {
      await this.lane.run(() => coll.insertMany(docs.map((d) => structuredClone(d) as unknown as Raw), { ordered: false }));
    } catch (e) {
      const failures = (e as { writeErrors?: { index: number; code?: number }[] | { index: number; code?: number } }).writeErrors;
      const list = Array.isArray(failures) ? failures : failures ? [failures] : [];
      if (list.length === 0 || list.some((w) => w.code !== 11000)) throw e;
      for (const w of list) collided.add(w.index);
    }
    if (collided.size > 0) await this.replaceAll(coll, docs.filter((_, i) => collided.has(i)));
  }

  async deleteMany(filter: Filter): Promise<number> {
    checkFilter(filter);
    if (this.lookups(filter) && !(Object.keys(filter).length === 1 && typeof filter._id === 'string')) {
      return this.writes.run(async () => {
        const matches = await this.locate(filter, {});
        for (const m of matches) await this.lane.run(() => m.coll.deleteOne({ _id: m.doc._id } as Raw));
        return matches.length;
      });
    }
    let deleted = 0;
    for (const coll of await this.place.forFilter(filter)) deleted += (await this.lane.run(() => coll.deleteMany(filter as Raw))).deletedCount;
    return deleted;
  }
}

export interface MongoDocumentStoreOptions {
  url: string;
  /** e.g. `wellstream_users`: `<WELLSTREAM_DB_PREFIX>_<service>`. */
  dbName: string;
  /** Where connection problems are reported (the service's logger). */
  logger: { warn(message: string, meta?: Record<string, unknown>): unknown };
}

export class MongoDocumentStore implements TestableDocumentStore {
  private readonly conn: Connection;
  private closed = false;
  private serialiseWrites?: Promise<boolean>;
  private idPushdown?: Promise<boolean>;
  private readonly queues = new Map<string, Pick<WriteLane, 'run'>>();
  private readonly lane = new WriteLane();
  private readonly specs = new Map<string, CollectionSpec>();
  /** Indexes created by this process, per collection (JSON of each IndexSpec). */
  private readonly indexed = new Map<string, Set<string>>();

  constructor(private readonly options: MongoDocumentStoreOptions) {
    this.conn = mongoose.createConnection(options.url, {
      dbName: options.dbName,
      // Indexes are created explicitly in collection(); nothing is created behind our back.
      autoIndex: false,
      autoCreate: false,
      serverSelectionTimeoutMS: 15_000,
    });
    this.conn.on('error', (err) => options.logger.warn('mongodb connection error', { db: options.dbName, error: err }));
  }

  async collection<T extends Doc>(asked: CollectionSpec): Promise<Collection<T>> {
    // A collection opened again by name only (e.g. the outbox checking a record) keeps the layout
    // it was first opened with: a partitioned collection's documents are not in its main table.
    const first = this.specs.get(asked.name);
    const spec: CollectionSpec = first ? { ...asked, partitionKey: asked.partitionKey ?? first.partitionKey, backlog: asked.backlog ?? first.backlog } : asked;
    this.specs.set(spec.name, spec);
    if (!/^[A-Za-z0-9_]+$/.test(spec.name) || spec.name.includes('__')) throw new Error(`invalid collection name ${spec.name}`);
    if (spec.partitionKey !== undefined) assertFieldPath(spec.partitionKey);
    await this.conn.asPromise();
    if (!this.conn.models[spec.name]) {
      // mongoose only creates the collection; queries use the driver.
      const schema = new Schema({ _id: String }, { strict: false, versionKey: false, _id: false, collection: spec.name, minimize: false });
      const model = this.conn.model<Raw>(spec.name, schema, spec.name);
      await model.createCollection().catch((e: { codeName?: string; code?: number }) => {
        if (e.code !== 48 && e.codeName !== 'NamespaceExists') throw e;
      });
    }
    // Every index any opener declares, each once per process (createIndex of an existing index is
    // a no-op on the server, so a restart or a second replica creates nothing twice).
    const made = this.indexed.get(spec.name) ?? new Set<string>();
    this.indexed.set(spec.name, made);
    for (const ix of spec.indexes ?? []) {
      const key = JSON.stringify(ix);
      if (made.has(key)) continue;
      for (const f of Object.keys(ix.fields)) assertFieldPath(f);
      await this.conn.db!.collection(spec.name).createIndex(ix.fields, { unique: ix.unique ?? false });
      made.add(key);
    }
    const ferret = await this.isFerretDb();
    const idPushdown = ferret && (await this.pushesDownIds(spec.name));
    let queue = this.queues.get(spec.name);
    if (!queue) this.queues.set(spec.name, (queue = ferret ? new WriteLane(Infinity) : NO_LANE));
    const partitioned = ferret && spec.partitionKey !== undefined;
    const place = new Placement(this.conn.db!, spec, partitioned);
    // A backlog's table is small: one query beats a lookup per id. A partition is small too, but a
    // few lookups (one record's ingestion) still beat decoding all of one user's documents. A
    // server that serves `_id` `$in` from its index needs no lookups at all.
    const lookupLimit = !ferret || idPushdown || spec.backlog ? 0 : partitioned ? 10 : Infinity;
    return new MongoCollection<T>(place, spec.name, queue, ferret, lookupLimit, ferret ? this.lane : NO_LANE);
  }

  private isFerretDb(): Promise<boolean> {
    this.serialiseWrites ??= this.conn
      .db!.admin()
      .command({ buildInfo: 1 })
      .then((info) => typeof info.ferretdbVersion === 'string')
      .catch((err) => {
        this.serialiseWrites = undefined;
        throw err;
      });
    return this.serialiseWrites;
  }

  /**
   * Whether this FerretDB pushes an `_id` `$in` down to its backend (the patched build does, from
   * the `_id` index; upstream v1.24.2 does not). Asked once, of a collection that exists.
   */
  private pushesDownIds(collection: string): Promise<boolean> {
    this.idPushdown ??= this.conn
      .db!.command({ explain: { find: collection, filter: { _id: { $in: ['a', 'b'] } } }, verbosity: 'queryPlanner' })
      .then((explained) => explained.filterPushdown === true)
      .catch((err) => {
        this.idPushdown = undefined;
        throw err;
      });
    return this.idPushdown;
  }

  async healthy(): Promise<boolean> {
    if (this.closed || this.conn.readyState !== 1 || !this.conn.db) return false;
    try {
      await this.conn.db.admin().ping();
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.conn.close();
  }

  async dropForTests(): Promise<void> {
    assertTestTarget(this.options.dbName);
    await this.conn.asPromise();
    // Empty every collection but keep them and their indexes, like the SQLite adapter does.
    for (const c of await this.conn.db!.collections()) await c.deleteMany({});
  }
}
