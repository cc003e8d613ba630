#!/usr/bin/env node
/**
 * Noisy neighbours: does one customer replaying a large history slow another customer down?
 *
 *   node bench/noisy-neighbour.bench.mjs [--mode embedded|distributed|both] [--records 20000] [--parallel 2] [--seconds 16] [--root DIR]
 *
 * Customer A holds `--records` records of its own; customer B has a connected stream client. For
 * `--seconds` B probes the platform every 50 ms while nothing else happens (the reference), then
 * for as long again while A replays its whole history over and over (`--parallel` at a time). The
 * figures are B's latencies, p50 and p99, each busy p99 as a ratio to the idle one, and the event-loop
 * delay p99 of the process serving the replays (prom-client's default collector, at /metrics).
 * - embedded (one process): B's single-record ingestion, B's GET user, and the delay from B's
 *   ingestion request to the record's arrival on B's stream.
 * - distributed (streams service its own process): B's GET /v2/streams through the gateway, and
 *   the delay from publishing B's record's event to its arrival on B's stream.
 * Loopback only; every loop ends after its time.
 */
import { Worker } from 'node:worker_threads';
import {
  api, args, eventLoopP99, createTenant, createUser, ingest, measurement, openSse, pct, publishRecords, settle, sleep, startDistributed, startEmbedded,
  startServers,
} from './harness.mjs';

const RECORDS = Number(args.records ?? 20_000);
const PARALLEL = Number(args.parallel ?? 2);
// 16 s of probes every 50 ms: about 300 samples a phase, so p99 is not one unlucky sample.
const SECONDS = Number(args.seconds ?? 16);
const MODES = (args.mode ?? 'both') === 'both' ? ['embedded', 'distributed'] : [args.mode];

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * A replays its whole history again and again, `parallel` replays at a time, until stopped: on a
 * worker thread, so reading A's events does not delay the probes that time B.
 */
function replayLoop(base, tenant, expected, parallel) {
  const worker = new Worker(new URL('./replay-worker.mjs', import.meta.url), { argv: process.argv.slice(2) });
  worker.postMessage({ cmd: 'loop', url: `${base}/replay?token=${tenant.token}&event_types=data`, expected, parallel });
  const stopped = new Promise((resolve) => worker.on('message', (m) => 'stopped' in m && resolve(m.stopped)));
  return {
    stop: async () => {
      worker.postMessage({ cmd: 'stop' });
      const completed = await stopped;
      await worker.terminate();
      return completed;
    },
  };
}

async function runMode(mode, servers) {
  const platform = mode === 'embedded' ? await startEmbedded() : await startDistributed(servers.env);
  const { base } = platform;
  try {
    const a = await createTenant(base, 'A');
    const b = await createTenant(base, 'B');
    const bUser = mode === 'embedded' ? await createUser(base, b, 'b-user') : undefined;
    if (mode === 'embedded') await ingest(base, await createUser(base, a, 'a-user'), RECORDS, { tag: 'a' });
    else await publishRecords(platform.log, a, RECORDS);
    const stream = await api(base, 'POST', '/streams', b.token, { name: 'main' });
    const sent = new Map();
    const arrivals = [];
    const client = await openSse(`${base}/streams/${stream.id}/connect?token=${b.token}`, (event, data, at) => {
      if (event !== 'data') return;
      const logId = JSON.parse(data).log_id;
      if (sent.has(logId)) arrivals.push(at - sent.get(logId));
    });
    if (bUser) await ingest(base, bUser, 1, { perRequest: 1, tag: 'warm' });
    await settle(platform.pid);

    const probe = async () => {
      const lat = { ingest: [], get: [], delivery: [] };
      await eventLoopP99(platform.metricsUrl); // starts a new measuring window
      arrivals.length = 0;
      const end = performance.now() + SECONDS * 1000;
      while (performance.now() < end) {
        const rec = measurement('b');
        sent.set(rec.log_id, performance.now());
        if (bUser) {
          lat.ingest.push(
            await timed(async () => {
              const r = await fetch(`${base}/mobile/records?token=${bUser.mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ records: [rec] }) });
              await r.arrayBuffer();
            }),
          );
          lat.get.push(await timed(() => api(base, 'GET', `/organizations/${b.organizationId}/users/b-user`, b.token)));
        } else {
          await publishRecords(platform.log, b, 1, { users: 1, batch: 1, record: rec });
          lat.get.push(await timed(() => api(base, 'GET', '/streams', b.token)));
        }
        await sleep(50);
      }
      lat.loopP99 = await eventLoopP99(platform.metricsUrl);
      await sleep(2000);
      lat.delivery = [...arrivals];
      return lat;
    };
    const idle = await probe();
    const replays = replayLoop(base, a, RECORDS, PARALLEL);
    await sleep(500);
    const busy = await probe();
    const completed = await replays.stop();
    client.close();
    const row = (name, i, bz) =>
      i.length && {
        [`${name}_idle_p50_ms`]: +pct(i, 50).toFixed(1),
        [`${name}_idle_p99_ms`]: +pct(i, 99).toFixed(1),
        [`${name}_busy_p50_ms`]: +pct(bz, 50).toFixed(1),
        [`${name}_busy_p99_ms`]: +pct(bz, 99).toFixed(1),
        [`${name}_p99_ratio`]: +(pct(bz, 99) / pct(i, 99)).toFixed(2),
        [`${name}_samples`]: `${i.length}/${bz.length}`,
      };
    return {
      mode,
      root: args.root ?? '.',
      records_of_A: RECORDS,
      replays_of_A_at_once: PARALLEL,
      replays_of_A_completed: completed,
      event_loop_delay_p99_ms_idle: idle.loopP99,
      event_loop_delay_p99_ms_busy: busy.loopP99,
      ...row('b_ingest', idle.ingest, busy.ingest),
      ...row(mode === 'embedded' ? 'b_get_user' : 'b_get_streams', idle.get, busy.get),
      ...row('b_stream_delivery', idle.delivery, busy.delivery),
    };
  } finally {
    await platform.stop();
  }
}

const servers = MODES.includes('distributed') ? startServers() : undefined;
try {
  for (const mode of MODES) console.log(JSON.stringify(await runMode(mode, servers), null, 2));
} finally {
  servers?.stop();
}
process.exit(0);
