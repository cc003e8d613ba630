/**
 * The embedded document store: one SQLite file per service, one table per collection holding
 * whole JSON documents; indexes are expression indexes on json_extract, so the same filter text
 * the queries use hits them.
 */
import type Database from 'better-sqlite3';
import { closeSqlite, openSqlite } from '@wellstream/sqlite';
import {
  assertFieldPath,
  assertTestTarget,
  Collection,
  CollectionSpec,
  Doc,
  DuplicateKeyError,
  Filter,
  FindOptions,
  Operators,
  PageOptions,
  Scalar,
  SortSpec,
  Update,
  UpsertSet,
} from './document-store.port';
import type { ExplainableQuery, QueryPlan, TestableDocumentStore } from './document-store.testing';
import { applyUpdate, getPath, seedFromFilter } from './apply-update';
import { pageKeys } from './filter-match';

type SqlValue = string | number | null;

const sqlValue = (v: Scalar): SqlValue => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

function expr(field: string): string {
  assertFieldPath(field);
  return field === '_id' ? '_id' : `json_extract(doc, '$.${field}')`;
}

const OPS: Record<string, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

/** True when the filter names its documents by _id (equality or a list): the primary key serves it. */
function pinsId(filter: Filter): boolean {
  const c = filter._id;
  if (c === undefined || c === null) return false;
  if (typeof c !== 'object') return true;
  return (c as Operators).$eq != null || Array.isArray((c as Operators).$in);
}

export function filterToSql(filter: Filter): { where: string; params: SqlValue[] } {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  // With _id pinned, SQLite (no statistics) would still pick an index on another constrained
  // field, e.g. records by (user_id, ...) for `{user_id, _id: {$in}}`, and read the user's whole
  // partition; a unary + keeps those terms off any index, so the primary key serves the lookup.
  const byId = pinsId(filter);
  const eq = (e: string, v: Scalar) => {
    if (v === null) clauses.push(`${e} IS NULL`);
    else {
      clauses.push(`${e} = ?`);
      params.push(sqlValue(v));
    }
  };
  for (const [field, cond] of Object.entries(filter as Record<string, Scalar | Operators>)) {
    const e = byId && field !== '_id' ? `+${expr(field)}` : expr(field);
    if (cond === null || typeof cond !== 'object') {
      eq(e, cond);
      continue;
    }
    for (const [op, v] of Object.entries(cond as Operators)) {
      if (op === '$eq') eq(e, v as Scalar);
      else if (op === '$ne') {
        if (v === null) clauses.push(`${e} IS NOT NULL`);
        else {
          clauses.push(`(${e} IS NULL OR ${e} != ?)`);
          params.push(sqlValue(v as Scalar));
        }
      } else if (op in OPS) {
        clauses.push(`${e} ${OPS[op]} ?`);
        params.push(sqlValue(v as Scalar));
      } else if (op === '$in' || op === '$nin') {
        const values = (v as Scalar[]).filter((x) => x !== null);
        const hasNull = (v as Scalar[]).includes(null);
        const parts: string[] = [];
        if (values.length) parts.push(`${e} IN (${values.map(() => '?').join(',')})`);
        if (hasNull) parts.push(`${e} IS NULL`);
        params.push(...values.map(sqlValue));
        const inClause = parts.length ? `(${parts.join(' OR ')})` : '(0)';
        // Like MongoDB, $nin matches a missing field unless null is in the list.
        if (op === '$in') clauses.push(inClause);
        else clauses.push(hasNull ? `NOT ${inClause}` : `(${e} IS NULL OR NOT ${inClause})`);
      } else if (op === '$exists') {
        const jt = field === '_id' ? '_id' : `json_type(doc, '$.${field}')`;
        clauses.push(v ? `${jt} IS NOT NULL` : `${jt} IS NULL`);
      } else throw new Error(`unsupported filter operator ${op}`);
    }
  }
  return { where: clauses.length ? clauses.join(' AND ') : '1', params };
}

function orderBy(sort?: SortSpec): string {
  if (!sort || Object.keys(sort).length === 0) return '';
  return ` ORDER BY ${Object.entries(sort)
    .map(([f, d]) => `${expr(f)} ${d === -1 ? 'DESC' : 'ASC'}`)
    .join(', ')}`;
}

const upsertSql = (table: string) => `INSERT INTO ${table} (_id, doc) VALUES (?, ?) ON CONFLICT (_id) DO UPDATE SET doc = excluded.doc`;

/** `filter` without its bounds on `field` in the paging direction (lower bounds going up). */
function withoutBound(filter: Filter, field: string, dir: 1 | -1): Filter {
  const cond = filter[field];
  if (cond === null || typeof cond !== 'object') return filter;
  const drop = dir === -1 ? ['$lt', '$lte'] : ['$gt', '$gte'];
  const kept = Object.fromEntries(Object.entries(cond).filter(([op]) => !drop.includes(op)));
  const out: Filter = { ...filter };
  if (Object.keys(kept).length) out[field] = kept;
  else delete out[field];
  return out;
}

function pageKeyValues(doc: unknown, keys: [string, 1 | -1][]): SqlValue[] {
  return keys.map(([f]) => {
    const v = getPath(doc, f);
    if (v === undefined || v === null || typeof v === 'object') throw new Error(`findPages: sort field ${f} must hold a scalar in every match`);
    return sqlValue(v as Scalar);
  });
}

const isUniqueViolation = (e: unknown) =>
  typeof e === 'object' && e !== null && String((e as { code?: string }).code).startsWith('SQLITE_CONSTRAINT');

/**
 * Prepared statements by SQL text: preparing costs more than running a small indexed query, and
 * the same few query shapes repeat on every request. Bounded, since filters vary in shape.
 */
class StatementCache {
  private readonly cache = new Map<string, Database.Statement>();
  constructor(
    private readonly db: Database.Database,
    private readonly max = 500,
  ) {}

  get(sql: string): Database.Statement {
    let stmt = this.cache.get(sql);
    if (!stmt) {
      if (this.cache.size >= this.max) this.cache.delete(this.cache.keys().next().value as string);
      stmt = this.db.prepare(sql);
      this.cache.set(sql, stmt);
    }
    return stmt;
  }
}

class SqliteCollection<T extends Doc> implements Collection<T> {
  private readonly table: string;
  private readonly statements: StatementCache;
  constructor(
    private readonly db: Database.Database,
    private readonly name: string,
  ) {
    this.table = `"c_${name}"`;
    this.statements = new StatementCache(db);
  }

  private sql(text: string): Database.Statement {
    return this.statements.get(text);
  }

  async insertOne(doc: T): Promise<void> {
    try {
      this.sql(`INSERT INTO ${this.table} (_id, doc) VALUES (?, ?)`).run(doc._id, JSON.stringify(doc));
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateKeyError(this.name);
      throw e;
    }
  }

  async findOne(filter: Filter, options: { sort?: SortSpec } = {}): Promise<T | null> {
    return this.findSync(filter, { ...options, limit: 1 })[0] ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return this.findSync(filter, options);
  }

  private findSync(filter: Filter, options: FindOptions): T[] {
    const { where, params } = filterToSql(filter);
    let sql = `SELECT doc FROM ${this.table} WHERE ${where}${orderBy(options.sort)}`;
    if (options.limit !== undefined || options.skip) sql += ` LIMIT ${Math.max(0, Math.floor(options.limit ?? -1))}`;
    if (options.limit === undefined && options.skip) sql = sql.replace(/LIMIT \d+$/, 'LIMIT -1');
    if (options.skip) sql += ` OFFSET ${Math.max(0, Math.floor(options.skip))}`;
    return (this.sql(sql).all(...params) as { doc: string }[]).map((r) => JSON.parse(r.doc) as T);
  }

  async *findPages(filter: Filter, options: PageOptions): AsyncIterable<T[]> {
    const keys = pageKeys(options.sort);
    const [lead, dir] = keys[0];
    const order = ` ORDER BY ${keys.map(([f]) => `${expr(f)} ${dir === -1 ? 'DESC' : 'ASC'}`).join(', ')} LIMIT ${Math.max(1, Math.floor(options.pageSize))}`;
    const first = filterToSql(filter);
    // Keyset paging: each later page starts after the last row seen, by a bound on the leading
    // key that SQLite seeks in an index, plus a row-value comparison for ties. The filter's own
    // bound on that key in the same direction is left out there: the last row met it, and with two
    // bounds on one key SQLite may seek by the looser one and scan every earlier row again.
    const rest = filterToSql(withoutBound(filter, lead, dir));
    const after = `${expr(lead)} ${dir === -1 ? '<=' : '>='} ? AND (${keys.map(([f]) => expr(f)).join(', ')}) ${dir === -1 ? '<' : '>'} (${keys.map(() => '?').join(', ')})`;
    let last: SqlValue[] | undefined;
    for (;;) {
      const page = (
        last
          ? this.sql(`SELECT doc FROM ${this.table} WHERE ${rest.where} AND ${after}${order}`).all(...rest.params, last[0], ...last)
          : this.sql(`SELECT doc FROM ${this.table} WHERE ${first.where}${order}`).all(...first.params)
      ) as { doc: string }[];
      if (page.length === 0) return;
      const docs = page.map((r) => JSON.parse(r.doc) as T);
      last = pageKeyValues(docs[docs.length - 1], keys);
      yield docs;
    }
  }

  async count(filter: Filter): Promise<number> {
    const { where, params } = filterToSql(filter);
    return (this.sql(`SELECT COUNT(*) AS n FROM ${this.table} WHERE ${where}`).get(...params) as { n: number }).n;
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: { upsert?: boolean; sort?: SortSpec } = {}): Promise<T | null> {
    // better-sqlite3 is synchronous, so read-modify-write inside one transaction is atomic.
    try {
      return this.db.transaction(() => {
        const current = this.findSync(filter, { sort: options.sort, limit: 1 })[0];
        if (current) {
          const next = applyUpdate(current, update, false);
          this.sql(`UPDATE ${this.table} SET doc = ? WHERE _id = ?`).run(JSON.stringify(next), current._id);
          return next;
        }
        if (!options.upsert) return null;
        const seeded = applyUpdate(seedFromFilter(filter) as T, update, true);
        if (!seeded._id) throw new Error('upsert needs an _id in the filter or $setOnInsert');
        this.sql(`INSERT INTO ${this.table} (_id, doc) VALUES (?, ?)`).run(seeded._id, JSON.stringify(seeded));
        return seeded;
      })();
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateKeyError(this.name);
      throw e;
    }
  }

  async updateMany(filter: Filter, update: Update): Promise<number> {
    try {
      return this.db.transaction(() => {
        const docs = this.findSync(filter, {});
        const stmt = this.sql(`UPDATE ${this.table} SET doc = ? WHERE _id = ?`);
        for (const d of docs) stmt.run(JSON.stringify(applyUpdate(d, update, false)), d._id);
        return docs.length;
      })();
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateKeyError(this.name);
      throw e;
    }
  }

  async bulkUpsert(docs: T[]): Promise<void> {
    if (docs.length === 0) return;
    const stmt = this.sql(upsertSql(this.table));
    try {
      this.db.transaction(() => {
        for (const d of docs) stmt.run(d._id, JSON.stringify(d));
      })();
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateKeyError(this.name);
      throw e;
    }
  }

  async deleteMany(filter: Filter): Promise<number> {
    const { where, params } = filterToSql(filter);
    return this.sql(`DELETE FROM ${this.table} WHERE ${where}`).run(...params).changes;
  }
}

export class SqliteDocumentStore implements TestableDocumentStore {
  private readonly db: Database.Database;
  private readonly upserts = new Map<string, Database.Statement>();
  private closed = false;

  /** `file` is the SQLite file, e.g. `<data dir>/users.db`. */
  constructor(private readonly file: string) {
    // Outbox entries and pending push items are deleted soon after they are written: incremental
    // auto-vacuum hands their pages back on close.
    this.db = openSqlite(file, { incrementalVacuum: true });
  }

  async collection<T extends Doc>(spec: CollectionSpec): Promise<Collection<T>> {
    if (!/^[A-Za-z0-9_]+$/.test(spec.name)) throw new Error(`invalid collection name ${spec.name}`);
    this.db.exec(`CREATE TABLE IF NOT EXISTS "c_${spec.name}" (_id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
    for (const ix of spec.indexes ?? []) {
      const fields = Object.entries(ix.fields);
      const name = `ix_${spec.name}_${fields.map(([f, d]) => `${f.replace(/\./g, '_')}_${d === -1 ? 'd' : 'a'}`).join('_')}`;
      const cols = fields.map(([f, d]) => `${expr(f)} ${d === -1 ? 'DESC' : 'ASC'}`).join(', ');
      this.db.exec(`CREATE ${ix.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${name}" ON "c_${spec.name}" (${cols})`);
    }
    return new SqliteCollection<T>(this.db, spec.name);
  }

  async upsertAtomically(sets: UpsertSet[]): Promise<void> {
    const statements = sets.map((set) => {
      let stmt = this.upserts.get(set.collection);
      if (!stmt) {
        if (!/^[A-Za-z0-9_]+$/.test(set.collection)) throw new Error(`invalid collection name ${set.collection}`);
        this.upserts.set(set.collection, (stmt = this.db.prepare(upsertSql(`"c_${set.collection}"`))));
      }
      return stmt;
    });
    try {
      this.db.transaction(() => {
        sets.forEach((set, i) => {
          for (const d of set.docs) statements[i].run(d._id, JSON.stringify(d));
        });
      })();
    } catch (e) {
      if (isUniqueViolation(e)) throw new DuplicateKeyError(sets.map((s) => s.collection).join('+'));
      throw e;
    }
  }

  async healthy(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.db.pragma('incremental_vacuum');
    await closeSqlite(this.db);
  }

  /**
   * SQLite's own plan (EXPLAIN QUERY PLAN) for a query as the collection runs it; a `SCAN` of the
   * table, or of a whole index without a limit, reads the collection.
   */
  async explainForTests(query: ExplainableQuery): Promise<QueryPlan> {
    if (!/^[A-Za-z0-9_]+$/.test(query.collection)) throw new Error(`invalid collection name ${query.collection}`);
    const { where, params } = filterToSql(query.filter);
    const table = `"c_${query.collection}"`;
    const sort = query.op === 'findPages' && query.sort ? Object.fromEntries(pageKeys(query.sort)) : query.sort;
    const limit = query.limit === undefined ? '' : ` LIMIT ${Math.max(0, Math.floor(query.limit))}`;
    const sql =
      query.op === 'count'
        ? `SELECT COUNT(*) FROM ${table} WHERE ${where}`
        : query.op === 'deleteMany'
          ? `DELETE FROM ${table} WHERE ${where}`
          : `SELECT doc FROM ${table} WHERE ${where}${orderBy(sort)}${limit}`;
    const rows = (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
    const scan = rows.some((d) => /^SCAN /.test(d) && !(query.limit !== undefined && /USING (COVERING )?INDEX/.test(d)));
    // A page (a limit) sorted in a temporary b-tree has read and sorted every match first.
    const sortsAll = query.limit !== undefined && query.limit > 1 && rows.some((d) => /TEMP B-TREE FOR ORDER BY/.test(d));
    return { scan, sortsAll, plan: rows.join('; ') };
  }

  async dropForTests(): Promise<void> {
    assertTestTarget(this.file);
    const tables = this.db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'c_%'`).all() as { name: string }[];
    for (const t of tables) this.db.exec(`DELETE FROM "${t.name}"`);
  }
}
