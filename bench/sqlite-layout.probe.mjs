/**
 * A probe of what one 100-record ingestion transaction costs SQLite on the embedded store, not
 * part of `npm run bench`: the rows the records service writes in that transaction (100 records
 * with their REST-read index, 100 content keys with theirs, one outbox entry holding the 100
 * events) laid out as libs/store's SQLite adapter lays them out (`_id TEXT PRIMARY KEY`, the
 * document as JSON, expression indexes on json_extract), then the entry deleted as the relay does.
 * It prints the main thread's CPU per transaction (from /proc, the other threads left out) and the
 * bytes it read per transaction, for one layout at a time:
 *
 *   node bench/sqlite-layout.probe.mjs [--ids hashed|ordered] [--page 16384] [--cache -2000]
 *     [--indexes expressions|columns|none] [--keys-index yes|no] [--preload 100] [--tx 300]
 *
 * `--ids ordered` gives records and content keys increasing ids (the store's ids are hashes);
 * `--indexes columns` keeps each indexed field in a column of its own instead of json_extract;
 * `--keys-index no` leaves out the content keys' index alone;
 * `--preload` transactions are written first (the store's size), `--tx` are measured. The WAL is
 * left to grow (as under the platform's load, whose checkpoints run on another thread). Run each
 * layout a few times, alternated: on a shared machine one run says little.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { args } from './harness.mjs';
import { root } from './processes.mjs';

const require = createRequire(import.meta.url);
const Database = require(require.resolve('better-sqlite3', { paths: [path.join(root, 'libs/store')] }));

const IDS = args.ids ?? 'hashed';
const PAGE = Number(args.page ?? 16384);
const CACHE = args.cache === undefined ? undefined : Number(args.cache);
const INDEXES = args.indexes ?? 'expressions';
const KEYS_INDEX = (args['keys-index'] ?? 'yes') !== 'no';
const PRELOAD = Number(args.preload ?? 100);
const TX = Number(args.tx ?? 300);

const sha = (s) => createHash('sha256').update(s).digest('hex');
const USER = randomUUID();
const day = (i) => new Date(Date.UTC(2026, 0, 1) + i * 86400_000).toISOString().slice(0, 10);
/** A record document shaped as the records service stores one (the ingestion bench's measurement). */
function record(n) {
  const h = sha(`${USER}\u0000withings\u0000w-${n}`);
  const id = IDS === 'ordered' ? `r${String(n).padStart(12, '0')}` : `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  const start = `${day(n % 28)}T07:${String(n % 60).padStart(2, '0')}:00Z`;
  const checksum = sha(`checksum ${n}`);
  const payload = {
    id,
    user_id: USER,
    type: 'measurement',
    source: { type: 'withings' },
    log_id: `w-${n}`,
    start_time: start,
    end_time: start,
    utc_offset: '+00:00',
    metrics: [{ type: 'body_weight', unit: 'kg', value: 40 + n / 1000, origin: 'device' }],
    checksum,
    created_at: new Date().toISOString(),
    deleted_at: null,
  };
  const contentKey = IDS === 'ordered' ? `c:${String(n).padStart(12, '0')}` : `c:${sha(`${USER}\u0000content ${n}`)}`;
  return { _id: id, user_id: USER, organization_id: 'org', customer_id: 'customer', type: 'measurement', source_type: 'withings', log_id: `w-${n}`, local_date: start.slice(0, 10), start_time: start, deleted_at: null, checksum, payload, content_key: contentKey };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-probe-sqlite-'));
const db = new Database(path.join(dir, 'records.db'));
// As libs/sqlite opens a document store's file.
db.pragma(`page_size = ${PAGE}`);
db.pragma('auto_vacuum = INCREMENTAL');
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('wal_autocheckpoint = 0');
if (CACHE !== undefined) db.pragma(`cache_size = ${CACHE}`);

/** Each collection's indexed fields (its declared index ends with _id). */
const TABLES = { records: ['user_id', 'type', 'start_time'], record_keys: ['user_id', 'kind'], outbox: ['batch_id'] };
const write = {};
const remove = {};
for (const [table, fields] of Object.entries(TABLES)) {
  const columns = fields.map((f) => `f_${f}`);
  if (INDEXES === 'columns') {
    db.exec(`CREATE TABLE ${table} (_id TEXT PRIMARY KEY, doc TEXT NOT NULL, ${columns.join(', ')})`);
    db.exec(`CREATE INDEX ix_${table} ON ${table} (${columns.join(', ')}, _id)`);
    const stmt = db.prepare(
      `INSERT INTO ${table} (_id, doc, ${columns.join(', ')}) VALUES (?, ?, ${columns.map(() => '?').join(', ')}) ON CONFLICT (_id) DO UPDATE SET doc = excluded.doc, ${columns.map((c) => `${c} = excluded.${c}`).join(', ')}`,
    );
    write[table] = (d) => stmt.run(d._id, JSON.stringify(d), ...fields.map((f) => d[f]));
  } else {
    db.exec(`CREATE TABLE ${table} (_id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
    if (INDEXES === 'expressions' && (KEYS_INDEX || table !== 'record_keys')) db.exec(`CREATE INDEX ix_${table} ON ${table} (${fields.map((f) => `json_extract(doc, '$.${f}')`).join(', ')}, _id)`);
    const stmt = db.prepare(`INSERT INTO ${table} (_id, doc) VALUES (?, ?) ON CONFLICT (_id) DO UPDATE SET doc = excluded.doc`);
    write[table] = (d) => stmt.run(d._id, JSON.stringify(d));
  }
  const del = db.prepare(`DELETE FROM ${table} WHERE _id = ?`);
  remove[table] = (id) => del.run(id);
}

let n = 0;
let entry = 0;
function batch() {
  const records = Array.from({ length: 100 }, () => record(n++));
  const keys = records.map((r) => ({ _id: r.content_key, user_id: USER, kind: 'content', record_id: r._id }));
  const messages = records.map((r) => ({ topic: 'customer-events', key: r._id, value: { id: randomUUID(), event_type: 'data', payload: r.payload } }));
  return { records, keys, outbox: { _id: String(entry++).padStart(16, '0'), batch_id: randomUUID(), state: 'ready', messages } };
}
const transaction = db.transaction((b) => {
  for (const d of b.records) write.records(d);
  for (const d of b.keys) write.record_keys(d);
  write.outbox(b.outbox);
});
const run = (b) => {
  transaction(b);
  remove.outbox(b.outbox._id);
};

/** Clock ticks (10 ms: USER_HZ is 100 on Linux) of CPU this process's main thread used, user and system. */
const ticks = () => {
  const fields = fs.readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const readBytes = () => Number(/rchar: (\d+)/.exec(fs.readFileSync('/proc/self/io', 'utf8'))[1]);

for (let i = 0; i < PRELOAD; i++) run(batch());
const batches = Array.from({ length: TX }, batch);
const r0 = readBytes();
const t0 = ticks();
for (const b of batches) run(b);
const cpuMs = (ticks() - t0) * 10;
const read = readBytes() - r0;
console.log(
  `ids ${IDS}, page ${PAGE}, cache ${CACHE ?? 'default'}, indexes ${INDEXES}${KEYS_INDEX ? '' : ' (none on content keys)'}, ${PRELOAD * 100} records before: ` +
    `main thread ${(cpuMs / TX).toFixed(2)} ms CPU per 100-record transaction, ${(read / TX / 1024).toFixed(0)} KB read per transaction`,
);
db.close();
fs.rmSync(dir, { recursive: true, force: true });
