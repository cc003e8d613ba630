#!/usr/bin/env node
/**
 * `npm run bench` in packages/mobile (after the workspace build): 30 days of an active Apple Watch
 * user (about 50,000 HealthKit samples, in the in-memory HealthKit) mapped and uploaded by the
 * SDK's core to an embedded platform running in its own process on this machine. Targets: ≤ 20 s,
 * ≤ 200 requests, peak heapUsed of this process ≤ 50 MB above its idle baseline (the store
 * loaded, the engine made, before the sync), and an incremental sync with nothing new ≤ 1 request.
 * Prints the figures as JSON; exits 1 when a target is missed. Run with --expose-gc (the script does).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const require = createRequire(import.meta.url);
const { WellstreamMobile, healthKitSource, MemoryHealthKit, appleWatchUser, memoryStorage } = require('../dist/index.js');

if (typeof globalThis.gc !== 'function') {
  const child = spawn(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url)], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  await main();
}

async function startPlatformProcess() {
  const admin = 'bench-admin-token-0123456789';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-mobile-bench-'));
  const script = `require(${JSON.stringify(path.join(root, 'platform/dist/index.js'))}).startPlatform({ ...process.env, WELLSTREAM_PORT: '0', WELLSTREAM_ADMIN_TOKEN: '${admin}', WELLSTREAM_LOG_LEVEL: 'silent', WELLSTREAM_DATA_DIR: ${JSON.stringify(dir)} }).then((p) => console.log('READY ' + p.baseUrl))`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.on('exit', () => child.kill('SIGKILL'));
  const baseUrl = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /READY (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`platform exited ${code}`)));
  });
  return { baseUrl, admin, stop: () => child.kill('SIGTERM') };
}

async function call(baseUrl, token, method, p, body, query = '') {
  const res = await fetch(`${baseUrl}${p}?token=${token}${query}`, { method, headers: { 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function main() {
  const platform = await startPlatformProcess();
  const { baseUrl, admin } = platform;
  const customer = await call(baseUrl, admin, 'POST', '/admin/customers', { name: 'bench' });
  const org = await call(baseUrl, admin, 'POST', `/admin/customers/${customer.id}/organizations`, { name: 'bench' });
  const dev = (await call(baseUrl, admin, 'POST', `/admin/customers/${customer.id}/tokens`, {})).token;
  await call(baseUrl, dev, 'POST', `/organizations/${org.id}/users`, { uid: 'watch', location: { timezone: 'Europe/Berlin', country_code: 'DE' } });
  const mobileToken = (await call(baseUrl, dev, 'GET', `/organizations/${org.id}/users/watch`)).mobile.token;

  const store = new MemoryHealthKit();
  const samples = appleWatchUser({ days: 30 });
  store.add(...samples);
  let requests = 0;
  const counted = (url, init) => {
    requests++;
    return fetch(url, init);
  };
  const mobile = new WellstreamMobile({ storage: memoryStorage(), source: healthKitSource(store.bridge), fetch: counted });
  mobile.configure({ baseUrl });
  await mobile.connect(mobileToken);
  const connectRequests = requests;

  globalThis.gc();
  const idle = process.memoryUsage().heapUsed;
  let peak = idle;
  const probe = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const t0 = performance.now();
  const first = await mobile.sync();
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(probe);
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  const firstRequests = requests - connectRequests;

  const before = requests;
  const again = await mobile.sync();
  const incrementalRequests = requests - before;
  // The walk-through: what arrived, as the customer reads it.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const arrived = {};
  for (const plural of ['summaries', 'sleep', 'measurements', 'workouts', 'nutrition', 'intraday']) {
    const month = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    arrived[plural] = (await call(baseUrl, dev, 'GET', `/organizations/${org.id}/users/watch/${plural}`, undefined, `&start_date=${month}&end_date=${yesterday}`)).data.length;
  }
  const summary = (await call(baseUrl, dev, 'GET', `/organizations/${org.id}/users/watch/summaries`, undefined, `&start_date=${yesterday}&end_date=${yesterday}`)).data[0];
  platform.stop();

  const figures = {
    samples: samples.length,
    records_uploaded: first.uploaded,
    seconds: Math.round(seconds * 10) / 10,
    requests: firstRequests,
    heap_above_idle_mb: Math.round(((peak - idle) / 2 ** 20) * 10) / 10,
    incremental_nothing_new_requests: incrementalRequests,
    incremental_uploaded: again.uploaded,
    records_on_rest_last_30_days: arrived,
    yesterday_summary: summary && { log_id: summary.log_id, source: summary.source, start_time: summary.start_time, end_time: summary.end_time, utc_offset: summary.utc_offset, offset_origin: summary.offset_origin, metrics: summary.metrics },
    machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown'}, node ${process.version}`,
  };
  console.log(JSON.stringify(figures, null, 2));
  const missed = [
    figures.seconds > 20 && 'seconds > 20',
    figures.requests > 200 && 'requests > 200',
    figures.heap_above_idle_mb > 50 && 'heap > 50 MB above idle',
    figures.incremental_nothing_new_requests > 1 && 'incremental > 1 request',
  ].filter(Boolean);
  if (missed.length) {
    console.error(`targets missed: ${missed.join(', ')}`);
    process.exit(1);
  }
  process.exit(0);
}
