#!/usr/bin/env node
/**
 * The sources service against the provider simulators (services/sources/src/providers/<type>/simulator), the
 * platform as a child process (embedded runtime), loopback only, every loop bounded:
 *
 *   node services/sources/bench/sources.mjs [--users 1000] [--seconds 60] [--webhooks 2000] [--days 30]
 *     [--polar-latency-ms 1000] [--only polar|google_health|garmin|garmin-pings|garmin-neighbour|suunto]
 *
 * 1. Backfill: `--days` of history for one Oura user (heart rate every 5 minutes, sleep, activity,
 *    workouts) and one Dexcom user (a reading every 5 minutes), from the callback until the user's
 *    `sources` entry says the backfill is done. Reference, same run: the same adapter fetching the
 *    same windows in a bare loop in this process (no platform: the provider's floor).
 * 2. Webhook: `--webhooks` signed Oura notifications, 8 in flight; our answer's latency p50/p99.
 *    Reference, same run: a bare node:http server answering 200 to the same requests.
 * 3. Noisy neighbour (neighbour.phase.mjs, shared by every provider's phase): customer B posts one
 *    record every 20 ms for `--seconds` (p50/p99 of its answers) while nothing else happens, then
 *    again while `--users` connected Oura users of customer A are each notified once a minute (a
 *    live fetch and ingestion each).
 * 4. Polar (polar-history.phase.mjs): one user's 28-day history with continuous heart rate at
 *    Polar's documented budget, `--polar-latency-ms` a data answer, and a live exercise notified
 *    while it runs; `--only polar` runs this phase alone.
 * 5. Garmin (garmin-history.phase.mjs), only with `--only garmin`: one user's 30-day history by
 *    backfill requests answered by pings, at the evaluation and production budgets, a live ping
 *    during it, `--webhooks` pings answered (`--only garmin-pings`: the pings alone), and its noisy
 *    neighbour: `--users` Garmin users pinged once a minute (garmin-neighbour.phase.mjs;
 *    `--only garmin-neighbour`: the neighbour alone).
 * 6. Suunto (suunto.phase.mjs): phases 1–3 for Suunto; `--only suunto` runs them alone (not part
 *    of the full run, which keeps its time).
 * 7. Google Health (google-health.phase.mjs): one user's history through dailyRollUp and the data
 *    point lists at Google's documented budget (per project and per user), its webhook latency and
 *    its noisy neighbour; `--only google_health` runs this phase alone.
 * Targets: backfill ≤ 10 s, webhook p99 ≤ 50 ms, B's busy p99 within 2× of idle; Polar's history
 * within the time its arithmetic allows, its live exercise stored ≤ 10 s after the notification.
 */
import http from 'node:http';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { createRequire } from 'node:module';
import { api, args, createTenant, openSse, pct, startEmbedded, until } from '../../../bench/harness.mjs';
import { requireTs } from '../../../scripts/ts-require.mjs';
import { polarHistoryPhase } from './polar-history.phase.mjs';
import { suuntoPhase } from './suunto.phase.mjs';
import { garminHistoryPhase } from './garmin-history.phase.mjs';
import { garminNeighbourPhase } from './garmin-neighbour.phase.mjs';
import { googleHealthPhase } from './google-health.phase.mjs';
import { noisyNeighbourPhase } from './neighbour.phase.mjs';

const root = path.resolve(new URL('../../..', import.meta.url).pathname);
const require = createRequire(import.meta.url);
const { OuraSimulator } = requireTs(path.join(root, 'services/sources/src/providers/oura/simulator/oura-simulator.ts'));
const { DexcomSimulator } = requireTs(path.join(root, 'services/sources/src/providers/dexcom/simulator/dexcom-simulator.ts'));
const { ouraAdapter } = require(path.join(root, 'services/sources/dist/providers/oura/oura.adapter.js'));
const { dexcomAdapter } = require(path.join(root, 'services/sources/dist/providers/dexcom/dexcom.adapter.js'));
const { fetchProviderHttp } = require(path.join(root, 'services/sources/dist/http/fetch-provider-http.js'));

const USERS = Number(args.users ?? 1000);
const SECONDS = Number(args.seconds ?? 60);
const WEBHOOKS = Number(args.webhooks ?? 2000);
const DAYS = Number(args.days ?? 30);
const DAY = 86_400_000;
const f1 = (x) => x.toFixed(1);

if (args.only === 'google_health') {
  await googleHealthPhase(root, { days: Number(args.days ?? 30), webhooks: Number(args.webhooks ?? 2000), users: Number(args.users ?? 1000), seconds: Number(args.seconds ?? 60) });
  process.exit(0);
}
if (args.only === 'garmin' || args.only === 'garmin-pings') {
  await garminHistoryPhase(root, Number(args.webhooks ?? 2000), { pingsOnly: args.only === 'garmin-pings' });
  if (args.only === 'garmin') await garminNeighbourPhase(root, { users: USERS, seconds: SECONDS });
  process.exit(0);
}
if (args.only === 'garmin-neighbour') {
  await garminNeighbourPhase(root, { users: USERS, seconds: SECONDS });
  process.exit(0);
}
if (args.only === 'polar') {
  await polarHistoryPhase(root, Number(args['polar-latency-ms'] ?? 1000));
  process.exit(0);
}
if (args.only === 'suunto') {
  await suuntoPhase(root, { days: DAYS, webhooks: WEBHOOKS, users: USERS, seconds: SECONDS });
  process.exit(0);
}

const oura = new OuraSimulator();
const dexcom = new DexcomSimulator();
await oura.start();
await dexcom.start();
const platformEnv = (backfillDays) => ({
  ...oura.env(),
  ...dexcom.env(),
  WELLSTREAM_SOURCE_BACKFILL_DAYS: String(backfillDays),
  WELLSTREAM_SOURCE_POLL_INTERVAL_S: '86400',
  WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: '100',
  // The platform's cost is measured here, not the providers' quotas: an application with a raised one.
  WELLSTREAM_SOURCE_OURA_RATE_LIMITS: '1000000/1m',
  WELLSTREAM_SOURCE_DEXCOM_RATE_LIMITS: '1000000/1m',
  ...(process.env.BENCH_LOG_LEVEL ? { WELLSTREAM_LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
});
let platform = await startEmbedded(platformEnv(DAYS));
let base = platform.base;

/** Marketplace Connect → the provider's consent → our callback: as a browser would. */
async function connect(sim, marketplaceUrl, who, type) {
  const start = await fetch(`${marketplaceUrl}/sources/${type}/connect`, { method: 'POST', redirect: 'manual' });
  if (start.status !== 303) throw new Error(`connect answered ${start.status}`);
  const back = await fetch(sim.authorize(start.headers.get('location'), who, 'allow'), { redirect: 'manual' });
  if (back.status !== 303 || !back.headers.get('location').includes('notice=connected')) throw new Error(`callback answered ${back.status} ${back.headers.get('location')}`);
}

const sourceOf = async (tenant, uid, type) => (await api(base, 'GET', `/organizations/${tenant.organizationId}/users/${uid}`, tenant.token)).sources.find((s) => s.type === type);

/** The adapter alone over plain fetch, the windows the platform asks for: the provider's floor. */
async function bareFetch(sim, adapter, who, days) {
  const e = sim.env();
  const k = (suffix) => e[Object.keys(e).find((x) => x.endsWith(suffix))];
  const s = { clientId: k('_CLIENT_ID'), clientSecret: k('_CLIENT_SECRET'), authUrl: k('_AUTH_URL'), tokenUrl: k('_TOKEN_URL'), apiUrl: k('_API_URL'), redirectUri: 'http://127.0.0.1:9/cb', webhookUrl: 'http://127.0.0.1:9/wh' };
  const httpClient = fetchProviderHttp({ timeoutMs: 15_000 });
  const verifier = 'v'.repeat(50);
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const code = new URL(sim.authorize(adapter.authorizeUrl(s, { state: 'bench-state-0123456789', ...(adapter.pkce ? { codeChallenge: challenge } : {}) }), who, 'allow')).searchParams.get('code');
  const tokens = await adapter.exchangeCode(httpClient, s, { code, ...(adapter.pkce ? { codeVerifier: verifier } : {}) }, new Date());
  const now = Date.now();
  const t0 = performance.now();
  const byType = {};
  for (const r of adapter.resources) {
    for (let start = now - days * DAY; start < now; start += r.maxWindowDays * DAY) {
      let cursor;
      do {
        const page = await adapter.fetchWindow(httpClient, s, tokens.accessToken, r.name, { start: new Date(start), end: new Date(Math.min(start + r.maxWindowDays * DAY, now)), cursor }, { userTimezone: 'Europe/Berlin' });
        for (const rec of page.records) byType[rec.type] = (byType[rec.type] ?? new Set()).add(rec.log_id);
        cursor = page.nextCursor;
      } while (cursor);
    }
  }
  return { ms: performance.now() - t0, counts: Object.fromEntries(Object.entries(byType).map(([t, ids]) => [t, ids.size])) };
}

/** log_ids of each user's records by type, from the replay of customer A (cgm has no REST path). */
const replayed = new Map();
const PATHS = { measurement: 'measurements', sleep: 'sleep', summary: 'summaries', workout: 'workouts', intraday: 'intraday' };

/** How many records of each type the user has stored: REST where there is a path, the replay's data events for cgm. */
async function storedCounts(tenant, uid, userId, types, days) {
  const out = {};
  const today = new Date();
  for (const t of types) {
    if (PATHS[t]) {
      let n = 0;
      for (let back = 0; back <= days + 2; back += 29) {
        const end = new Date(today.getTime() - back * DAY + DAY).toISOString().slice(0, 10);
        const start = new Date(today.getTime() - Math.min(back + 28, days + 2) * DAY).toISOString().slice(0, 10);
        n += (await api(base, 'GET', `/organizations/${tenant.organizationId}/users/${uid}/${PATHS[t]}?start_date=${start}&end_date=${end}`, tenant.token)).data.length;
      }
      out[t] = n;
    } else out[t] = replayed.get(`${userId}:${t}`)?.size ?? 0;
  }
  return out;
}

try {
  let a = await createTenant(base, 'A');

  // 1. Backfill
  console.log(`\n== backfill: ${DAYS} days, one user each (embedded)`);
  // cgm has no REST path: its records are counted from the customer's replay (stored, then published).
  const replay = await openSse(`${base}/replay?token=${a.token}&event_types=data`, (event, data) => {
    if (event !== 'data') return;
    const r = JSON.parse(data);
    const key = `${r.user.user_id}:${r.type}`;
    replayed.set(key, (replayed.get(key) ?? new Set()).add(r.log_id));
  });
  for (const [type, sim, adapter] of [['oura', oura, ouraAdapter], ['dexcom', dexcom, dexcomAdapter]]) {
    const who = sim.createUser({ days: DAYS + 1, now: new Date() });
    const bare = await bareFetch(sim, adapter, who, DAYS);
    const uid = `bf-${type}`;
    const user = await api(base, 'POST', `/organizations/${a.organizationId}/users`, a.token, { uid, location: { timezone: 'Europe/Berlin' } });
    const t0 = performance.now();
    await connect(sim, user.marketplace.url, who, type);
    let counts = {};
    await until(`${type} backfill stored`, async () => {
      if ((await sourceOf(a, uid, type))?.backfill?.state !== 'done') return false;
      counts = await storedCounts(a, uid, user.id, Object.keys(bare.counts), DAYS);
      return Object.entries(bare.counts).every(([t, n]) => counts[t] >= n);
    }, 300_000, 100);
    const ms = performance.now() - t0;
    const total = Object.values(bare.counts).reduce((x, y) => x + y, 0);
    console.log(`${type.padEnd(7)} stored ${total} records (${Object.entries(bare.counts).map(([t, n]) => `${t} ${n}`).join(', ')}) in ${f1(ms / 1000)} s · bare adapter fetch loop ${f1(bare.ms / 1000)} s · ratio ${f1(ms / bare.ms)}× · target ≤ 10 s: ${ms <= 10_000 ? 'met' : 'MISSED'}`);
  }
  replay.close();

  // 2. Webhook latency
  console.log(`\n== webhook: ${WEBHOOKS} signed Oura notifications, 8 in flight`);
  const hookUser = oura.createUser({ days: 2, now: new Date() });
  const hu = await api(base, 'POST', `/organizations/${a.organizationId}/users`, a.token, { uid: 'hook-user', location: { timezone: 'Europe/Berlin' } });
  await connect(oura, hu.marketplace.url, hookUser, 'oura');
  oura.addData(hookUser, 'workout', new Date());
  const bare = http.createServer((req, res) => req.on('data', () => {}).on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')));
  await new Promise((r) => bare.listen(0, '127.0.0.1', r));
  const timedHooks = async (url) => {
    const lat = [];
    let left = WEBHOOKS;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (left-- > 0) {
          const t0 = performance.now();
          const status = await oura.notify(url, hookUser, 'workout');
          if (status >= 300) throw new Error(`webhook answered ${status}`);
          lat.push(performance.now() - t0);
        }
      }),
    );
    return lat;
  };
  const refLat = await timedHooks(`http://127.0.0.1:${bare.address().port}/v2/sources/oura/webhook`);
  const ourLat = await timedHooks(`${base}/sources/oura/webhook`);
  bare.close();
  console.log(`bare node:http  p50 ${f1(pct(refLat, 50))} ms  p99 ${f1(pct(refLat, 99))} ms`);
  console.log(`wellstream      p50 ${f1(pct(ourLat, 50))} ms  p99 ${f1(pct(ourLat, 99))} ms  (p99 ${f1(pct(ourLat, 99) / pct(refLat, 99))}× bare) · target p99 ≤ 50 ms: ${pct(ourLat, 99) <= 50 ? 'met' : 'MISSED'}`);

  // 3. Noisy neighbour (a platform of its own whose backfill is one day)
  await platform.stop();
  platform = await startEmbedded(platformEnv(1));
  base = platform.base;
  await noisyNeighbourPhase({
    name: 'Oura',
    platform,
    users: USERS,
    seconds: SECONDS,
    connectUser: async (_base, marketplaceUrl) => {
      const who = oura.createUser({ days: 1, now: new Date() });
      await connect(oura, marketplaceUrl, who, 'oura');
      oura.addData(who, 'daily_activity', new Date());
      return who;
    },
    notify: (b, who) => oura.notify(`${b}/sources/oura/webhook`, who, 'daily_activity'),
  });
} finally {
  await platform.stop();
  await oura.stop();
  await dexcom.stop();
}

// 4. Polar's history at its documented budget (a platform of its own)
await polarHistoryPhase(root, Number(args['polar-latency-ms'] ?? 1000));

// 5. Google Health's backfill, webhook and noisy neighbour (a platform of its own)
await googleHealthPhase(root, { days: DAYS, webhooks: WEBHOOKS, users: USERS, seconds: SECONDS });
