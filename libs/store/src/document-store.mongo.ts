/**
 * The distributed document store: MongoDB through mongoose, one database per service
 * (`<prefix>_<service>`), one model per collection. Runs on MongoDB and on FerretDB v1, so it uses
 * only what both implement (no transactions, no TTL/partial indexes, no projections on
 * findOneAndUpdate). Reads are lean: callers get plain objects, never mongoose documents.
 *
 * FerretDB v1 runs findAndModify/update as read-then-write without a transaction, so concurrent
 * `$inc`s on one document can be lost there (MongoDB is atomic per document). On FerretDB this
 * adapter therefore serialises read-modify-write calls per collection within the process; across
 * processes only MongoDB gives the guarantee (docker-compose and production use MongoDB).
 */
import mongoose, { Connection, Model, Schema } from 'mongoose';
import {
  assertFieldPath,
  assertTestTarget,
  Collection,
  CollectionSpec,
  Doc,
  DocumentStore,
  DuplicateKeyError,
  Filter,
  FindOptions,
  SortSpec,
  Update,
} from './document-store.port';

/** Concurrent upserts of one new _id can collide on insert; the loser retries as an update. */
const UPSERT_RETRIES = 3;

function isDuplicateKey(e: unknown): boolean {
  if (typeof e !== 'object' || e === null) return false;
  const err = e as { code?: number; message?: string; writeErrors?: { code?: number; err?: { code?: number } }[] };
  if (err.code === 11000 || (err.writeErrors ?? []).some((w) => w.code === 11000 || w.err?.code === 11000)) return true;
  // FerretDB v1 (SQLite backend) reports a unique violation on update as InternalError (code 1).
  return err.code === 1 && /UNIQUE constraint failed/.test(err.message ?? '');
}

/** Runs async work one at a time (a per-collection queue); a no-op pass-through when disabled. */
class WriteQueue {
  private tail: Promise<unknown> = Promise.resolve();
  /** Set on FerretDB, whose writes need serialising (and whose upserts ignore $setOnInsert). */
  constructor(readonly enabled: boolean) {}
  run<R>(work: () => Promise<R>): Promise<R> {
    if (!this.enabled) return work();
    const next = this.tail.then(work, work);
    this.tail = next.catch(() => undefined);
    return next;
  }
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

class MongoCollection<T extends Doc> implements Collection<T> {
  constructor(
    private readonly model: Model<Record<string, unknown>>,
    private readonly name: string,
    private readonly writes: WriteQueue,
  ) {}

  private async translate<R>(work: () => Promise<R>): Promise<R> {
    try {
      return await work();
    } catch (e) {
      if (isDuplicateKey(e)) throw new DuplicateKeyError(this.name);
      throw e;
    }
  }

  async insertOne(doc: T): Promise<void> {
    await this.translate(() => this.model.collection.insertOne(structuredClone(doc) as never));
  }

  async findOne(filter: Filter, options: { sort?: SortSpec } = {}): Promise<T | null> {
    const q = this.model.findOne(checkFilter(filter)).lean();
    if (options.sort) q.sort(options.sort);
    return (await q.exec()) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    // MongoDB reads limit 0 as "no limit"; the port means "nothing".
    if (options.limit !== undefined && Math.floor(options.limit) <= 0) return [];
    const q = this.model.find(checkFilter(filter)).lean();
    if (options.sort) q.sort(options.sort);
    if (options.skip) q.skip(Math.max(0, Math.floor(options.skip)));
    if (options.limit !== undefined) q.limit(Math.floor(options.limit));
    return (await q.exec()) as T[];
  }

  async count(filter: Filter): Promise<number> {
    return this.model.countDocuments(checkFilter(filter)).exec();
  }

  findOneAndUpdate(filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec } = {}): Promise<T | null> {
    return this.writes.run(() => this.findOneAndUpdateNow(filter, update, options));
  }

  private async findOneAndUpdateNow(filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec }): Promise<T | null> {
    const f = checkFilter(filter);
    const u = checkUpdate(update);
    // FerretDB v1 silently drops $setOnInsert in an upsert; there (writes are serialised by the
    // queue) it is applied as a second step once the result says a document was inserted.
    const emulateSetOnInsert = this.writes.enabled && options.upsert && u.$setOnInsert !== undefined;
    const { $setOnInsert, ...withoutSetOnInsert } = u;
    for (let attempt = 0; ; attempt++) {
      try {
        const q = this.model.findOneAndUpdate(f, emulateSetOnInsert ? withoutSetOnInsert : u, {
          upsert: options.upsert ?? false,
          returnDocument: 'after',
          sort: options.sort,
          // The update is already in MongoDB syntax; keep mongoose from rewriting or casting it.
          strict: false,
          setDefaultsOnInsert: false,
          includeResultMetadata: true,
        });
        const res = (await q.lean().exec()) as unknown as { value: T | null; lastErrorObject?: { updatedExisting?: boolean } };
        if (emulateSetOnInsert && res.value && res.lastErrorObject?.updatedExisting === false) {
          return (await this.model
            .findOneAndUpdate({ _id: res.value._id }, { $set: $setOnInsert }, { returnDocument: 'after', strict: false })
            .lean()
            .exec()) as T | null;
        }
        return res.value;
      } catch (e) {
        if (!(options.upsert && isDuplicateKey(e) && attempt < UPSERT_RETRIES)) {
          if (isDuplicateKey(e)) throw new DuplicateKeyError(this.name);
          throw e;
        }
      }
    }
  }

  async updateMany(filter: Filter, update: Update): Promise<number> {
    const u = checkUpdate(update);
    if (Object.keys(u).length === 0) return this.count(filter);
    const res = await this.writes.run(() => this.translate(() => this.model.updateMany(checkFilter(filter), u, { strict: false }).exec()));
    return res.matchedCount;
  }

  async bulkUpsert(docs: T[]): Promise<void> {
    if (docs.length === 0) return;
    await this.translate(() =>
      this.model.collection.bulkWrite(
        docs.map((d) => ({ replaceOne: { filter: { _id: d._id } as never, replacement: structuredClone(d) as never, upsert: true } })),
        { ordered: true },
      ),
    );
  }

  async deleteMany(filter: Filter): Promise<number> {
    const res = await this.model.deleteMany(checkFilter(filter)).exec();
    return res.deletedCount;
  }
}

export interface MongoDocumentStoreOptions {
  url: string;
  /** e.g. `wellstream_users`: `<WELLSTREAM_DB_PREFIX>_<service>`. */
  dbName: string;
  /** Where connection problems are reported (the service's logger). */
  logger: { warn(message: string, meta?: Record<string, unknown>): unknown };
}

export class MongoDocumentStore implements DocumentStore {
  private readonly conn: Connection;
  private closed = false;
  private serialiseWrites?: Promise<boolean>;
  private readonly queues = new Map<string, WriteQueue>();

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

  async collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>> {
    if (!/^[A-Za-z0-9_]+$/.test(spec.name)) throw new Error(`invalid collection name ${spec.name}`);
    await this.conn.asPromise();
    let model = this.conn.models[spec.name] as Model<Record<string, unknown>> | undefined;
    if (!model) {
      const schema = new Schema({ _id: String }, { strict: false, versionKey: false, _id: false, collection: spec.name, minimize: false });
      for (const ix of spec.indexes ?? []) {
        for (const f of Object.keys(ix.fields)) assertFieldPath(f);
        schema.index(ix.fields, { unique: ix.unique ?? false });
      }
      model = this.conn.model<Record<string, unknown>>(spec.name, schema, spec.name);
      await model.createCollection().catch((e: { codeName?: string; code?: number }) => {
        if (e.code !== 48 && e.codeName !== 'NamespaceExists') throw e;
      });
      await model.createIndexes();
    }
    const serialise = await this.isFerretDb();
    let queue = this.queues.get(spec.name);
    if (!queue) this.queues.set(spec.name, (queue = new WriteQueue(serialise)));
    return new MongoCollection<T>(model, spec.name, queue);
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
