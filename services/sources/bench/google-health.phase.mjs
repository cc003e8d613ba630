/**
 * Google Health through the platform (embedded) against its simulator, at Google's documented budget
 * (120,000 a minute per project and 300 a minute per user, no raised quota):
 * 1. one user's `days` of history (heart rate a sample a minute, Fitbit's storage resolution; a
 *    sleep a night, an exercise every other day, a weight every third, a body fat every seventh, a
 *    daily summary per local day from dailyRollUp) from the callback until every
 *    record is stored, against the same adapter fetching the same windows in a bare loop (the floor);
 * 2. `webhooks` notifications (the subscriber secret as Authorization), 8 in flight, our answer's
 *    latency against a bare node:http server;
 * 3. customer B's ingestion p99 idle, then while `users` connected Google Health users of customer A
 *    are each notified once a minute (a live fetch and ingestion each).
 * Targets: backfill ≤ 10 s, webhook p99 ≤ 50 ms, B's busy p99 within 2× of idle.
 */
import http from 'node:http';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { createRequire } from 'node:module';
import { api, createTenant, pct, startEmbedded, until } from '../../../bench/harness.mjs';
import { noisyNeighbourPhase } from './neighbour.phase.mjs';
import { requireTs } from '../../../scripts/ts-require.mjs';

const DAY = 86_400_000;
const f1 = (x) => x.toFixed(1);
const PATHS = { measurement: 'measurements', sleep: 'sleep', summary: 'summaries', workout: 'workouts', intraday: 'intraday' };

export async function googleHealthPhase(root, { days, webhooks, users, seconds }) {
  const require = createRequire(import.meta.url);
  const { GoogleHealthSimulator } = requireTs(path.join(root, 'services/sources/src/providers/google_health/simulator/google-health-simulator.ts'));
  const { googleHealthAdapter: adapter } = require(path.join(root, 'services/sources/dist/providers/google_health/google_health.adapter.js'));
  const { webhookAuthorization } = require(path.join(root, 'services/sources/dist/providers/google_health/google-health-webhooks.js'));
  const { fetchProviderHttp } = require(path.join(root, 'services/sources/dist/http/fetch-provider-http.js'));
  const sim = new GoogleHealthSimulator({ subscriberSecret: webhookAuthorization, heartRateEveryS: 60 });
  await sim.start();
  const env = (backfillDays) => ({ ...sim.env(), WELLSTREAM_SOURCE_BACKFILL_DAYS: String(backfillDays), WELLSTREAM_SOURCE_POLL_INTERVAL_S: '86400', WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: '100', ...(process.env.BENCH_LOG_LEVEL ? { WELLSTREAM_LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}) });
  let platform = await startEmbedded(env(days));
  let base = platform.base;
  const connect = async (marketplaceUrl, who) => {
    const start = await fetch(`${marketplaceUrl}/sources/google_health/connect`, { method: 'POST', redirect: 'manual' });
    const back = await fetch(sim.authorize(start.headers.get('location'), who, 'allow'), { redirect: 'manual' });
    if (!back.headers.get('location')?.includes('notice=connected')) throw new Error(`callback answered ${back.status} ${back.headers.get('location')}`);
  };
  try {
    // 1. Backfill
    console.log(`\n== Google Health backfill: ${days} days of one user, heart rate a sample a minute (embedded, Google's documented budget)`);
    const a = await createTenant(base, 'G');
    const who = sim.createUser({ days: days + 1, now: new Date() });
    const bare = await bareFetch(sim, adapter, fetchProviderHttp, who, days);
    const uid = 'gh-backfill';
    const user = await api(base, 'POST', `/organizations/${a.organizationId}/users`, a.token, { uid, location: { timezone: 'Europe/Berlin' } });
    const before = sim.stats(who).dataRequests;
    const t0 = performance.now();
    await connect(user.marketplace.url, who);
    const stored = async (t) => {
      let n = 0;
      for (let back = 0; back <= days + 2; back += 29) {
        const end = new Date(Date.now() - back * DAY + DAY).toISOString().slice(0, 10);
        const start = new Date(Date.now() - Math.min(back + 28, days + 2) * DAY).toISOString().slice(0, 10);
        n += (await api(base, 'GET', `/organizations/${a.organizationId}/users/${uid}/${PATHS[t]}?start_date=${start}&end_date=${end}&source=google_health`, a.token)).data.length;
      }
      return n;
    };
    await until('Google Health backfill stored', async () => {
      const s = (await api(base, 'GET', `/organizations/${a.organizationId}/users/${uid}`, a.token)).sources.find((x) => x.type === 'google_health');
      if (s?.backfill?.state !== 'done') return false;
      for (const [t, n] of Object.entries(bare.counts)) if ((await stored(t)) < n) return false;
      return true;
    }, 300_000, 100);
    const ms = performance.now() - t0;
    const total = Object.values(bare.counts).reduce((x, y) => x + y, 0);
    console.log(`stored ${total} records (${Object.entries(bare.counts).map(([t, n]) => `${t} ${n}`).join(', ')}; ${bare.samples} heart-rate samples) in ${f1(ms / 1000)} s with ${sim.stats(who).dataRequests - before} requests to Google · bare adapter fetch loop ${f1(bare.ms / 1000)} s (${bare.requests} requests) · ratio ${f1(ms / bare.ms)}× · target ≤ 10 s: ${ms <= 10_000 ? 'met' : 'MISSED'}`);

    // 2. Webhook latency
    console.log(`\n== Google Health webhook: ${webhooks} notifications, 8 in flight`);
    sim.addData(who, 'exercise', new Date());
    const bareServer = http.createServer((req, res) => req.on('data', () => {}).on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')));
    await new Promise((r) => bareServer.listen(0, '127.0.0.1', r));
    const timed = async (url) => {
      const lat = [];
      let left = webhooks;
      await Promise.all(Array.from({ length: 8 }, async () => {
        while (left-- > 0) {
          const s = performance.now();
          const status = await sim.notify(url, who, 'exercise');
          if (status >= 300) throw new Error(`webhook answered ${status}`);
          lat.push(performance.now() - s);
        }
      }));
      return lat;
    };
    const refLat = await timed(`http://127.0.0.1:${bareServer.address().port}/v2/sources/google_health/webhook`);
    const ourLat = await timed(`${base}/sources/google_health/webhook`);
    bareServer.close();
    console.log(`bare node:http  p50 ${f1(pct(refLat, 50))} ms  p99 ${f1(pct(refLat, 99))} ms`);
    console.log(`wellstream      p50 ${f1(pct(ourLat, 50))} ms  p99 ${f1(pct(ourLat, 99))} ms  (p99 ${f1(pct(ourLat, 99) / pct(refLat, 99))}× bare) · target p99 ≤ 50 ms: ${pct(ourLat, 99) <= 50 ? 'met' : 'MISSED'}`);

    // 3. Noisy neighbour (a platform of its own whose backfill is one day)
    await platform.stop();
    platform = await startEmbedded(env(1));
    base = platform.base;
    await noisyNeighbourPhase({
      name: 'Google Health',
      platform,
      users,
      seconds,
      settleMs: 900_000,
      connectUser: async (_base, marketplaceUrl) => {
        const w = sim.createUser({ days: 1, now: new Date() });
        await connect(marketplaceUrl, w);
        sim.addData(w, 'weight', new Date());
        return w;
      },
      notify: (b, w) => sim.notify(`${b}/sources/google_health/webhook`, w, 'weight'),
    });
  } finally {
    await platform.stop();
    await sim.stop();
  }
}

/** The adapter alone over plain fetch, the windows the platform asks for: the provider's floor. */
async function bareFetch(sim, adapter, fetchProviderHttp, who, days) {
  const e = sim.env();
  const k = (suffix) => e[Object.keys(e).find((x) => x.endsWith(suffix))];
  const s = { clientId: k('_CLIENT_ID'), clientSecret: k('_CLIENT_SECRET'), authUrl: k('_AUTH_URL'), tokenUrl: k('_TOKEN_URL'), apiUrl: k('_API_URL'), redirectUri: 'http://127.0.0.1:9/cb', webhookUrl: 'http://127.0.0.1:9/wh' };
  const httpClient = fetchProviderHttp({ timeoutMs: 15_000 });
  const verifier = 'v'.repeat(50);
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const code = new URL(sim.authorize(adapter.authorizeUrl(s, { state: 'bench-state-0123456789', codeChallenge: challenge }), who, 'allow')).searchParams.get('code');
  const tokens = await adapter.exchangeCode(httpClient, s, { code, codeVerifier: verifier }, new Date());
  const now = Date.now();
  const before = sim.stats(who).dataRequests;
  const t0 = performance.now();
  const byType = {};
  const samplesByDay = new Map();
  for (const r of adapter.resources) {
    for (let start = now - days * DAY; start < now; start += r.maxWindowDays * DAY) {
      let cursor;
      do {
        const page = await adapter.fetchWindow(httpClient, s, tokens.accessToken, r.name, { start: new Date(start), end: new Date(Math.min(start + r.maxWindowDays * DAY, now)), cursor }, { userTimezone: 'Europe/Berlin' });
        for (const rec of page.records) {
          byType[rec.type] = (byType[rec.type] ?? new Set()).add(rec.log_id);
          if (rec.type === 'intraday') samplesByDay.set(rec.log_id, rec.metrics[0].samples.length);
        }
        cursor = page.nextCursor;
      } while (cursor);
    }
  }
  return { ms: performance.now() - t0, requests: sim.stats(who).dataRequests - before, samples: [...samplesByDay.values()].reduce((x, y) => x + y, 0), counts: Object.fromEntries(Object.entries(byType).map(([t, ids]) => [t, ids.size])) };
}
