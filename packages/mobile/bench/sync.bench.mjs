#!/usr/bin/env node
/**
 * `npm run bench` in packages/mobile (after the workspace build): 30 days of an active Apple Watch
 * user (about 50,000 HealthKit samples, in the in-memory HealthKit) mapped and uploaded by the
 * SDK's core to an embedded platform running in its own process on this machine. Targets: ≤ 20 s,
 * ≤ 200 requests, peak heapUsed of this process ≤ 50 MB above its idle baseline (the store
 * loaded, the engine made, before the sync), and an incremental sync with nothing new ≤ 1 request.
 * Prints the figures as JSON; exits 1 when a target is missed. Run with --expose-gc (the script does).
 *
 * The in-memory HealthKit runs in a worker thread (a heap of its own), as HealthKit's samples live
 * outside the app's JS heap on a phone: each query's page crosses over as new objects, as the
 * bridge makes them. `--store-in-heap` keeps the store in this process's heap instead (the
 * measurement of earlier sessions: 47,494 samples built just before the sync leave V8 promoting
 * whole young pages, garbage included, until its first full collection).
 *
 * `--live` is the diagnosis, not the measurement: it forces a collection before every upload and
 * reports the largest heap still live then (what the sync holds, without the garbage V8 has not
 * collected yet). Node flags such as --trace-gc can be passed after the script name.
 *
 * The heap: V8 grows its old generation lazily and runs no full collection until a limit far above
 * the target, so an uncapped run measures V8's habits more than what the sync needs (61–76 MB
 * above idle, most of it garbage). The measurement therefore gives this process the target's own
 * room, an old generation of 56 MB (`--max-old-space-size=56`: the ~6 MB idle plus 50), as a phone
 * gives an app a bounded heap: the sync must finish inside it (it would die out of memory
 * otherwise) and the peak is read there. `--uncapped` measures without the cap; a
 * `--max-old-space-size` of your own replaces it. The store's worker keeps a heap of its own.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const require = createRequire(import.meta.url);
const { WellstreamMobile, healthKitSource, MemoryHealthKit, appleWatchUser, memoryStorage } = require('../dist/index.js');

const OWN_FLAGS = ['--live', '--store-in-heap', '--uncapped'];
/** The old generation the measurement allows: the idle baseline (about 6 MB) plus the 50 MB target. */
const HEAP_CAP_FLAG = '--max-old-space-size=56';
const live = process.argv.includes('--live');
const storeInHeap = process.argv.includes('--store-in-heap');
if (typeof globalThis.gc !== 'function') {
  const nodeFlags = process.argv.slice(2).filter((a) => a.startsWith('--') && !OWN_FLAGS.includes(a));
  const capped = !process.argv.includes('--uncapped') && !nodeFlags.some((f) => f.startsWith('--max-old-space-size'));
  if (capped) nodeFlags.push(HEAP_CAP_FLAG);
  const child = spawn(process.execPath, ['--expose-gc', ...nodeFlags, fileURLToPath(import.meta.url), ...process.argv.slice(2).filter((a) => OWN_FLAGS.includes(a))], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  await main();
}

async function startPlatformProcess() {
  const admin = 'bench-admin-token-0123456789';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-mobile-bench-'));
  const script = `require(${JSON.stringify(path.join(root, 'platform/dist/index.js'))}).startPlatform({ ...process.env, WELLSTREAM_PORT: '0', WELLSTREAM_ADMIN_TOKEN: '${admin}', WELLSTREAM_LOG_LEVEL: 'silent', WELLSTREAM_DATA_DIR: ${JSON.stringify(dir)} }).then((p) => console.log('READY ' + p.baseUrl))`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.on('exit', () => {
    child.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });
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

/** MemoryHealthKit with 30 days of an Apple Watch user in a worker thread, behind the bridge's functions. */
async function storeInWorker() {
  const code = `
    const { parentPort } = require('node:worker_threads');
    const { MemoryHealthKit, appleWatchUser } = require(${JSON.stringify(path.resolve(here, '../dist/index.js'))});
    const store = new MemoryHealthKit();
    store.add(...appleWatchUser({ days: 30 }));
    parentPort.postMessage({ ready: store.all().length });
    parentPort.on('message', async ({ id, fn, args }) => parentPort.postMessage({ id, result: await store.bridge[fn](...args) }));`;
  // HealthKit's samples are not the app's heap: the store is not held to the measured process's cap.
  const worker = new Worker(code, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 1024 } });
  const samples = await new Promise((resolve) => worker.once('message', (m) => resolve(m.ready)));
  const waiting = new Map();
  let next = 0;
  worker.on('message', ({ id, result }) => {
    waiting.get(id)(result);
    waiting.delete(id);
  });
  const remote = (fn) => (...args) => new Promise((resolve) => {
    waiting.set(++next, resolve);
    worker.postMessage({ id: next, fn, args });
  });
  const bridge = Object.fromEntries(['requestAuthorization', 'queryQuantitySamplesWithAnchor', 'queryCategorySamplesWithAnchor', 'queryWorkoutSamplesWithAnchor', 'queryQuantitySamples'].map((fn) => [fn, remote(fn)]));
  return { bridge, samples, stop: () => worker.terminate() };
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

  let store;
  if (storeInHeap) {
    const memory = new MemoryHealthKit();
    memory.add(...appleWatchUser({ days: 30 }));
    store = { bridge: memory.bridge, samples: memory.all().length, stop: () => undefined };
  } else store = await storeInWorker();
  let requests = 0;
  let liveMax = 0;
  const counted = (url, init) => {
    requests++;
    if (live && url.includes('/mobile/records')) {
      globalThis.gc();
      liveMax = Math.max(liveMax, process.memoryUsage().heapUsed);
    }
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
  await store.stop();

  const figures = {
    samples: store.samples,
    store: storeInHeap ? 'in this heap' : 'worker thread',
    records_uploaded: first.uploaded,
    seconds: Math.round(seconds * 10) / 10,
    requests: firstRequests,
    heap_above_idle_mb: Math.round(((peak - idle) / 2 ** 20) * 10) / 10,
    idle_heap_mb: Math.round((idle / 2 ** 20) * 10) / 10,
    old_space_cap_mb: Number(process.execArgv.find((f) => f.startsWith('--max-old-space-size='))?.split('=')[1] ?? 0) || null,
    ...(live ? { live_at_uploads_above_idle_mb: Math.round(((liveMax - idle) / 2 ** 20) * 10) / 10 } : {}),
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
    !live && figures.heap_above_idle_mb > 50 && 'heap > 50 MB above idle',
    figures.incremental_nothing_new_requests > 1 && 'incremental > 1 request',
  ].filter(Boolean);
  if (missed.length) {
    console.error(`targets missed: ${missed.join(', ')}`);
    process.exit(1);
  }
  process.exit(0);
}
