/**
 * One Polar user's 28-day history, continuous heart rate included, through the platform at Polar's
 * documented budget (no raised quota: 500 per 15 minutes, 5,000 per 24 hours, history's share 60 %)
 * against the Polar simulator at its documented limits, each data answer taking `latencyMs`; a live
 * exercise notified while that history runs.
 *
 * The arithmetic: the history is one request per page, each after the one before
 *   exercises 1 + sleep 1 + activities 2 (26-day windows) + continuous heart rate 1 (2 when the
 *   user's local days straddle the 28) + physical info 1 create + 1 list + 2 entries + 1 commit
 *   = about 10–12 requests (the run prints the count Polar received),
 * all within one 15-minute window (history may use 300 of its 500), so no request waits for the
 * budget and the history takes about requests × latency plus the platform's own time. (Before,
 * continuous heart rate alone cost 28 requests a chunk against 24 a minute for all background work.)
 * Targets: history ≤ requests × latency + 5 s; the live exercise stored ≤ 10 s after its notification.
 */
import path from 'node:path';
import { api, createTenant, startEmbedded, until } from '../../../bench/harness.mjs';
import { requireTs } from '../../../scripts/ts-require.mjs';

const DAY = 86_400_000;
const f1 = (x) => x.toFixed(1);

export async function polarHistoryPhase(root, latencyMs) {
  const { PolarSimulator } = requireTs(path.join(root, 'services/sources/src/providers/polar/simulator/polar-simulator.ts'));
  const sim = new PolarSimulator();
  await sim.start();
  const platform = await startEmbedded({ ...sim.env(), WELLSTREAM_SOURCE_BACKFILL_DAYS: '28', WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: '100', ...(process.env.BENCH_LOG_LEVEL ? { WELLSTREAM_LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}) });
  const base = platform.base;
  try {
    console.log(`\n== Polar: one user's 28-day history with continuous heart rate at Polar's documented budget, ${latencyMs} ms a data answer, a live exercise during it`);
    const a = await createTenant(base, 'P');
    const uid = 'polar-history';
    const user = await api(base, 'POST', `/organizations/${a.organizationId}/users`, a.token, { uid, location: { timezone: 'Europe/Berlin' } });
    // Registered with our client 40 days ago, so its exercises of the last 30 days are listed too.
    const who = sim.createUser({ days: 28, now: new Date(), registeredAt: new Date(Date.now() - 40 * DAY) });
    const source = async () => (await api(base, 'GET', `/organizations/${a.organizationId}/users/${uid}`, a.token)).sources.find((s) => s.type === 'polar');
    const stored = async (p) => (await api(base, 'GET', `/organizations/${a.organizationId}/users/${uid}/${p}?start_date=${new Date(Date.now() - 29 * DAY).toISOString().slice(0, 10)}&end_date=${new Date(Date.now() + DAY).toISOString().slice(0, 10)}&source=polar`, a.token)).data;
    sim.setLatency(latencyMs);
    const first = sim.requests().length;
    const start = await fetch(`${user.marketplace.url}/sources/polar/connect`, { method: 'POST', redirect: 'manual' });
    const t0 = performance.now();
    const back = await fetch(sim.authorize(start.headers.get('location'), who, 'allow'), { redirect: 'manual' });
    if (!back.headers.get('location')?.includes('notice=connected')) throw new Error(`callback answered ${back.status} ${back.headers.get('location')}`);
    await until('the Polar history running', async () => (await source())?.backfill?.state === 'running', 30_000, 50);
    // The connect had the platform create its webhook (Polar sends nothing before that).
    await until('the Polar webhook created', async () => sim.subscriptions().length === 1, 30_000, 50);
    const [liveId] = sim.addData(who, 'exercises', new Date());
    const status = await sim.notify(`${base}/sources/polar/webhook`, who, 'exercises');
    if (status >= 300) throw new Error(`webhook answered ${status}`);
    const tNotify = performance.now();
    await until('the live exercise stored', async () => (await stored('workouts')).some((w) => w.log_id === liveId), 60_000, 50);
    const liveMs = performance.now() - tNotify;
    const runningThen = (await source())?.backfill?.state;
    await until('the Polar history done', async () => (await source())?.backfill?.state === 'done', 600_000, 100);
    const historyMs = performance.now() - t0;
    const reqs = sim.requests().slice(first).filter((r) => r.path.startsWith('/v3/users/') || r.path === '/v3/exercises');
    const refused = reqs.filter((r) => r.limited).length;
    const heart = reqs.filter((r) => r.path.startsWith('/v3/users/continuous-heart-rate')).length;
    const intraday = (await stored('intraday')).length;
    // The registration (POST /v3/users) and the live fetch are not history.
    const history = reqs.length - 2;
    const allowed = history * latencyMs + 5_000;
    console.log(`history: ${history} requests to Polar (continuous heart rate ${heart}), ${refused} refused with 429; ${intraday} days of heart rate stored; done ${f1(historyMs / 1000)} s after the callback`);
    console.log(`arithmetic: ${history} requests × ${latencyMs} ms = ${f1((history * latencyMs) / 1000)} s (+5 s) · target ≤ ${f1(allowed / 1000)} s: ${historyMs <= allowed ? 'met' : 'MISSED'}`);
    console.log(`live exercise stored ${f1(liveMs / 1000)} s after its notification (history then: ${runningThen}) · target ≤ 10 s: ${liveMs <= 10_000 ? 'met' : 'MISSED'}`);
  } finally {
    await platform.stop();
    await sim.stop();
  }
}
