/**
 * A probe of the data lifecycle (docs/data-lifecycle.md), not part of `npm run bench`: on the embedded platform
 * (build first), one user with N records (default 10,000): how long an export takes to become
 * ready and to download, how long an erasure takes to answer and to finish in every service, and
 * another customer-API request's latency meanwhile beside the same request idle.
 *   node bench/data-lifecycle.probe.mjs [N]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { startPlatform } = await import(path.join(root, 'platform/dist/index.js'));
const N = Number(process.argv[2] ?? 10000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifecycle-probe-'));
const A = 'admin-token-for-bench-000001';
const p = await startPlatform({ ...process.env, WELLSTREAM_PORT: '0', WELLSTREAM_DATA_DIR: dir, WELLSTREAM_ADMIN_TOKEN: A, WELLSTREAM_LOG_LEVEL: 'error' });
const B = p.baseUrl;
const j = async (m, path, tok, body) => { const r = await fetch(`${B}${path}${path.includes('?') ? '&' : '?'}token=${tok}`, { method: m, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) }); return r.json(); };
const cus = await j('POST', '/admin/customers', A, { name: 'b' });
const org = await j('POST', `/admin/customers/${cus.id}/organizations`, A, { name: 'b' });
const tok = (await j('POST', `/admin/customers/${cus.id}/tokens`, A, { rate_limit_per_hour: 10000000 })).token;
await j('POST', `/organizations/${org.id}/users`, tok, { uid: 'bench-user' });
const mob = (await j('GET', `/organizations/${org.id}/users/bench-user`, tok)).mobile.token;
const t0 = Date.now();
for (let i = 0; i < N; i += 100) {
  const records = Array.from({ length: Math.min(100, N - i) }, (_, k) => { const t = new Date(Date.now() - (i + k) * 60000).toISOString().slice(0, 19) + 'Z'; return { type: 'measurement', source: { type: 'withings' }, log_id: `b-${i + k}`, start_time: t, end_time: t, metrics: [{ type: 'body_weight', unit: 'kg', value: 70 + (k % 10) / 10, origin: 'device' }] }; });
  const r = await fetch(`${B}/mobile/records?token=${mob}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ records }) });
  if (r.status !== 200) throw new Error(`ingest ${r.status} ${await r.text()}`);
}
console.log(`ingested ${N} records in ${Date.now() - t0} ms`);
const e0 = Date.now();
const job = await j('POST', `/admin/organizations/${org.id}/users/bench-user/exports`, A, {});
let ready;
for (;;) { ready = await j('GET', `/admin/organizations/${org.id}/users/bench-user/exports/${job.id}`, A); if (ready.status === 'ready') break; await new Promise((r) => setTimeout(r, 50)); }
const e1 = Date.now();
const file = await (await fetch(ready.download_url)).text();
const e2 = Date.now();
console.log(`export ready in ${e1 - e0} ms (${JSON.stringify(ready.counts)}), ${ready.size_bytes} bytes; download ${e2 - e1} ms, ${file.split('\n').length - 1} lines`);
const base = [];
for (let i = 0; i < 30; i++) { const s = Date.now(); await j('GET', `/organizations/${org.id}/users?limit=1`, tok); base.push(Date.now() - s); await new Promise((r) => setTimeout(r, 20)); }
base.sort((a, b) => a - b);
console.log(`idle: the same request p50 ${base[15]} ms, max ${base[29]} ms`);
// Another request's latency while an erasure runs.
const r0 = Date.now();
const erasing = j('POST', `/admin/organizations/${org.id}/users/bench-user/erasure`, A, {});
const lat = [];
await erasing;
const answered = Date.now() - r0;
let complete;
for (;;) {
  const page = await j('GET', `/admin/audit_log?customer_id=${cus.id}&action=erasure.completed&limit=100`, A);
  if (page.data.length >= 5) { complete = Date.now() - r0; break; }
  const s = Date.now(); await j('GET', `/organizations/${org.id}/users?limit=1`, tok); lat.push(Date.now() - s);
  await new Promise((r) => setTimeout(r, 20));
}
lat.sort((a, b) => a - b);
console.log(`erasure answered in ${answered} ms, every service done in ${complete} ms; another request meanwhile: p50 ${lat[Math.floor(lat.length / 2)]} ms, max ${lat[lat.length - 1]} ms over ${lat.length}`);
await p.stop();
fs.rmSync(dir, { recursive: true, force: true });
