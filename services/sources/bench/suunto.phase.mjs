/**
 * Suunto through the platform against the Suunto simulator (embedded runtime, loopback only):
 * 1. Backfill: `days` of history for one user (workouts, daily activity, sleep, 24/7 activity
 *    samples every ten minutes), from the callback until its records are stored. Reference, same
 *    run: the adapter fetching the same windows in a bare loop (the provider's floor).
 * 2. Webhook: `webhooks` signed WORKOUT_CREATED notifications, 8 in flight; our answer's latency.
 *    Reference: a bare node:http server answering the same requests.
 * 3. Noisy neighbour: customer B posts one record every 20 ms for `seconds` while idle, then while
 *    `users` connected Suunto users of customer A are each notified once a minute.
 * The platform's cost is measured, not Suunto's quota: the application's budget is raised (1,000
 * users notified once a minute need 1,000 reads a minute, more than our default 120; README.md).
 *   node services/sources/bench/sources.mjs --only suunto [--days 30] [--webhooks 2000] [--users 1000] [--seconds 60]
 */
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { api, createTenant, pct, startEmbedded, until } from '../../../bench/harness.mjs';
import { noisyNeighbourPhase } from './neighbour.phase.mjs';
import { requireTs } from '../../../scripts/ts-require.mjs';

const DAY = 86_400_000;
const f1 = (x) => x.toFixed(1);
const PATHS = { sleep: 'sleep', summary: 'summaries', workout: 'workouts', intraday: 'intraday' };

export async function suuntoPhase(root, { days, webhooks, users, seconds }) {
  const require = createRequire(import.meta.url);
  const { SuuntoSimulator } = requireTs(path.join(root, 'services/sources/src/providers/suunto/simulator/suunto-simulator.ts'));
  const { suuntoAdapter } = require(path.join(root, 'services/sources/dist/providers/suunto/suunto.adapter.js'));
  const { fetchProviderHttp } = require(path.join(root, 'services/sources/dist/http/fetch-provider-http.js'));
  const sim = new SuuntoSimulator();
  await sim.start();
  const env = (backfillDays) => ({
    ...sim.env(),
    WELLSTREAM_SOURCE_BACKFILL_DAYS: String(backfillDays),
    WELLSTREAM_SOURCE_POLL_INTERVAL_S: '86400',
    WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: '100',
    WELLSTREAM_SOURCE_SUUNTO_RATE_LIMITS: '1000000/1m',
    ...(process.env.BENCH_LOG_LEVEL ? { WELLSTREAM_LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
  });
  let platform = await startEmbedded(env(days));
  let base = platform.base;
  const connect = async (marketplaceUrl, who) => {
    const start = await fetch(`${marketplaceUrl}/sources/suunto/connect`, { method: 'POST', redirect: 'manual' });
    if (start.status !== 303) throw new Error(`connect answered ${start.status}`);
    const back = await fetch(sim.authorize(start.headers.get('location'), who, 'allow'), { redirect: 'manual' });
    if (back.status !== 303 || !back.headers.get('location').includes('notice=connected')) throw new Error(`callback answered ${back.status}`);
  };
  try {
    // 1. Backfill
    console.log(`\n== Suunto backfill: ${days} days, one user (embedded)`);
    const a = await createTenant(base, 'S');
    const who = sim.createUser({ days: days + 1, now: new Date() });
    const e = sim.env();
    const s = { clientId: e.WELLSTREAM_SOURCE_SUUNTO_CLIENT_ID, clientSecret: e.WELLSTREAM_SOURCE_SUUNTO_CLIENT_SECRET, authUrl: e.WELLSTREAM_SOURCE_SUUNTO_AUTH_URL, tokenUrl: e.WELLSTREAM_SOURCE_SUUNTO_TOKEN_URL, apiUrl: e.WELLSTREAM_SOURCE_SUUNTO_API_URL, redirectUri: 'http://127.0.0.1:9/cb', webhookUrl: 'http://127.0.0.1:9/wh', extra: { SUBSCRIPTION_KEY: e.WELLSTREAM_SOURCE_SUUNTO_SUBSCRIPTION_KEY } };
    const httpClient = fetchProviderHttp({ timeoutMs: 15_000 });
    const code = new URL(sim.authorize(suuntoAdapter.authorizeUrl(s, { state: 'bench-state-0123456789' }), who, 'allow')).searchParams.get('code');
    const tokens = await suuntoAdapter.exchangeCode(httpClient, s, { code }, new Date());
    const now = Date.now();
    const requestsBefore = sim.stats(who).dataRequests;
    const t0 = performance.now();
    const byType = {};
    for (const r of suuntoAdapter.resources) {
      for (let start = now - days * DAY; start < now; start += r.maxWindowDays * DAY) {
        let cursor;
        do {
          const page = await suuntoAdapter.fetchWindow(httpClient, s, tokens.accessToken, r.name, { start: new Date(start), end: new Date(Math.min(start + r.maxWindowDays * DAY, now)), cursor }, { userTimezone: 'Europe/Berlin' });
          for (const rec of page.records) if (Date.parse(rec.start_time) >= now - days * DAY) (byType[rec.type] ??= new Set()).add(rec.log_id);
          cursor = page.nextCursor;
        } while (cursor);
      }
    }
    const bareMs = performance.now() - t0;
    const requests = sim.stats(who).dataRequests - requestsBefore;
    const counts = Object.fromEntries(Object.entries(byType).map(([t, ids]) => [t, ids.size]));
    const uid = 'bf-suunto';
    const user = await api(base, 'POST', `/organizations/${a.organizationId}/users`, a.token, { uid, location: { timezone: 'Europe/Berlin' } });
    const c0 = performance.now();
    await connect(user.marketplace.url, who);
    await until('suunto backfill stored', async () => {
      for (const [t, n] of Object.entries(counts)) {
        let got = 0;
        for (let back = 0; back <= days + 2; back += 29) {
          const end = new Date(now - back * DAY + DAY).toISOString().slice(0, 10);
          const start = new Date(now - Math.min(back + 28, days + 2) * DAY).toISOString().slice(0, 10);
          got += (await api(base, 'GET', `/organizations/${a.organizationId}/users/${uid}/${PATHS[t]}?start_date=${start}&end_date=${end}&source=suunto`, a.token)).data.length;
        }
        if (got < n) return false;
      }
      return true;
    }, 300_000, 100);
    const ms = performance.now() - c0;
    const total = Object.values(counts).reduce((x, y) => x + y, 0);
    console.log(`suunto  stored ${total} records (${Object.entries(counts).map(([t, n]) => `${t} ${n}`).join(', ')}) in ${f1(ms / 1000)} s · bare adapter fetch loop ${f1(bareMs / 1000)} s (${requests} requests) · ratio ${f1(ms / bareMs)}× · target ≤ 10 s: ${ms <= 10_000 ? 'met' : 'MISSED'}`);

    // 2. Webhook latency
    console.log(`\n== Suunto webhook: ${webhooks} signed WORKOUT_CREATED notifications, 8 in flight`);
    const hookUser = sim.createUser({ days: 2, now: new Date() });
    const hu = await api(base, 'POST', `/organizations/${a.organizationId}/users`, a.token, { uid: 'hook-user', location: { timezone: 'Europe/Berlin' } });
    await connect(hu.marketplace.url, hookUser);
    sim.addData(hookUser, 'workouts', new Date());
    const bare = http.createServer((req, res) => req.on('data', () => {}).on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')));
    await new Promise((r) => bare.listen(0, '127.0.0.1', r));
    const timed = async (url) => {
      const lat = [];
      let left = webhooks;
      await Promise.all(Array.from({ length: 8 }, async () => {
        while (left-- > 0) {
          const w0 = performance.now();
          const status = await sim.notify(url, hookUser, 'workouts');
          if (status >= 300) throw new Error(`webhook answered ${status}`);
          lat.push(performance.now() - w0);
        }
      }));
      return lat;
    };
    const refLat = await timed(`http://127.0.0.1:${bare.address().port}/v2/sources/suunto/webhook`);
    const ourLat = await timed(`${base}/sources/suunto/webhook`);
    bare.close();
    console.log(`bare node:http  p50 ${f1(pct(refLat, 50))} ms  p99 ${f1(pct(refLat, 99))} ms`);
    console.log(`wellstream      p50 ${f1(pct(ourLat, 50))} ms  p99 ${f1(pct(ourLat, 99))} ms  (p99 ${f1(pct(ourLat, 99) / pct(refLat, 99))}× bare) · target p99 ≤ 50 ms: ${pct(ourLat, 99) <= 50 ? 'met' : 'MISSED'}`);

    // 3. Noisy neighbour (a platform of its own whose backfill is one day)
    await platform.stop();
    platform = await startEmbedded(env(1));
    base = platform.base;
    await noisyNeighbourPhase({
      name: 'Suunto',
      platform,
      users,
      seconds,
      connectUser: async (_base, marketplaceUrl) => {
        const w = sim.createUser({ days: 1, now: new Date() });
        await connect(marketplaceUrl, w);
        sim.addData(w, 'workouts', new Date());
        return w;
      },
      notify: (b, w) => sim.notify(`${b}/sources/suunto/webhook`, w, 'workouts'),
    });
  } finally {
    await platform.stop();
    await sim.stop();
  }
}
