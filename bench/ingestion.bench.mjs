/**
 * Ingestion and query speed (embedded runtime): records per second through the mobile endpoint
 * for single-record and 100-record requests (each record validated, checksummed, stored, put in
 * the outbox and published), and a 30-day summaries query. Physical reference, same run: raw
 * SQLite (better-sqlite3, WAL, synchronous=NORMAL like the embedded store) inserting a record-sized
 * JSON row per transaction, and 100 rows per transaction.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { load, fmt } from './load.mjs';

process.env.WELLSTREAM_LOG_LEVEL ??= 'silent';
const require = createRequire(import.meta.url);
const { startPlatform } = require('../platform/dist/index.js');
const Database = require(require.resolve('better-sqlite3', { paths: [path.join(path.dirname(new URL(import.meta.url).pathname), '../libs/store')] }));

/** Rows per second: `perTx` record-sized JSON rows per transaction, fresh database. */
function rawSqliteRate(perTx, rows) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-bench-raw-'));
  const db = new Database(path.join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE t (_id TEXT PRIMARY KEY, doc TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (_id, doc) VALUES (?, ?)');
  const tx = db.transaction((from) => {
    for (let i = from; i < from + perTx; i++) insert.run(`row-${i}`, JSON.stringify({ _id: `row-${i}`, user_id: 'u', payload: { pad: 'x'.repeat(700), n: i } }));
  });
  const t0 = performance.now();
  for (let i = 0; i < rows; i += perTx) tx(i);
  const rate = Math.round(rows / ((performance.now() - t0) / 1000));
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return rate;
}

const admin = 'bench-admin-token-0123456789';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-bench-'));
const platform = await startPlatform({ WELLSTREAM_PORT: '0', WELLSTREAM_DATA_DIR: dataDir, WELLSTREAM_ADMIN_TOKEN: admin, WELLSTREAM_LOG_LEVEL: 'silent' });
const B = platform.baseUrl;
const call = async (method, p, token, body) => {
  const res = await fetch(`${B}${p}${p.includes('?') ? '&' : '?'}token=${token}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
};

const day = (i) => new Date(Date.UTC(2026, 0, 1) + i * 86400_000).toISOString().slice(0, 10);
const measurement = (n) => ({
  type: 'measurement',
  source: { type: 'withings' },
  log_id: `w-${n}`,
  start_time: `${day(n % 28)}T07:${String(n % 60).padStart(2, '0')}:00Z`,
  end_time: `${day(n % 28)}T07:${String(n % 60).padStart(2, '0')}:00Z`,
  metrics: [{ type: 'body_weight', unit: 'kg', value: 70 + (n % 50) / 10, origin: 'device' }],
});
const summary = (i) => ({
  type: 'summary',
  category: 'daily',
  source: { type: 'garmin' },
  log_id: `s-${i}`,
  start_time: `${day(i)}T00:00:00Z`,
  end_time: `${day(i)}T23:59:59Z`,
  metrics: [
    { type: 'steps', unit: 'count', value: 8000 + i },
    { type: 'distance', unit: 'm', value: 6000 + i },
    { type: 'energy_burned', unit: 'kcal', value: 2300 },
    { type: 'resting_heart_rate', unit: 'bpm', value: 58 },
  ],
});

try {
  const customer = await call('POST', '/admin/customers', admin, { name: 'bench' });
  const org = await call('POST', `/admin/customers/${customer.id}/organizations`, admin, { name: 'bench' });
  const { token } = await call('POST', `/admin/customers/${customer.id}/tokens`, admin, { rate_limit_per_hour: 10_000_000 });
  await call('POST', `/organizations/${org.id}/users`, token, { uid: 'bench-user', location: { timezone: 'Europe/Berlin', country_code: 'DE' } });
  const user = await call('GET', `/organizations/${org.id}/users/bench-user`, token);
  const mobile = user.mobile.token;
  // The records service learns the user from the users topic; wait until it accepts the token.
  for (let i = 0; i < 100; i++) {
    const r = await fetch(`${B}/mobile/records?token=${mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ records: [summary(0)] }) });
    if (r.status === 200) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  for (let i = 1; i < 30; i++) await call('POST', '/mobile/records', mobile, { records: [summary(i)] });

  const url = `${B}/mobile/records?token=${mobile}`;
  let n = 0;
  const single = await load({ url, method: 'POST', total: 2000, concurrency: 16, body: () => JSON.stringify({ records: [measurement(n++)] }) });
  const batched = await load({
    url,
    method: 'POST',
    total: 100,
    concurrency: 4,
    body: () => JSON.stringify({ records: Array.from({ length: 100 }, () => measurement(n++)) }),
  });
  const query = await load({ url: `${B}/organizations/${org.id}/users/bench-user/summaries?token=${token}&start_date=${day(0)}&end_date=${day(29)}`, total: 2000, concurrency: 16 });
  const rawSingle = rawSqliteRate(1, 5000);
  const rawBatched = rawSqliteRate(100, 50000);
  console.log(`embedded runtime, ${os.cpus().length} cores, through the gateway`);
  console.log(`reference: raw SQLite, 1 row per transaction: ${rawSingle} rows/s; 100 rows per transaction: ${rawBatched} rows/s`);
  console.log(fmt('ingest, 1 new record per request', single), `→ ${single.rps} records/s = ${(single.rps / rawSingle).toFixed(3)} of raw SQLite`);
  console.log(fmt('ingest, 100 new records per request', batched), `→ ${batched.rps * 100} records/s = ${((batched.rps * 100) / rawBatched).toFixed(3)} of raw SQLite`);
  console.log(fmt('GET 30 days of summaries (30 records)', query));
  console.log(`batching ratio: ${((batched.rps * 100) / single.rps).toFixed(1)}x the records/s of single-record requests`);
} finally {
  await platform.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
