#!/usr/bin/env node
/**
 * What a customer's streams and replays cost when another customer is busy (tenant-scoped delivery).
 *
 *   node bench/tenant-isolation.bench.mjs [--mode embedded|distributed|both] [--other 50000] [--idle-clients 40] [--root DIR]
 *
 * 1. Replay time to own events: a customer with 20 records opens a replay and waits for its 20
 *    events, first on an empty platform (the reference), then after another customer stored
 *    `--other` records. The ratio of the two is the figure (1 = the other customer costs nothing).
 * 2. Idle clients: `--idle-clients` customers, each with a stream and one connected SSE client
 *    that receives nothing; CPU and RSS of the process holding them, per client.
 * 3. Unrelated records: streams-service CPU per record published by a customer none of those
 *    clients belongs to (distributed: the streams service is its own process).
 *
 * Embedded runs go through ingestion (POST /mobile/records, 100 per request); distributed runs
 * publish the records' events straight onto Kafka (as the records service would), because what
 * is measured is the delivery side. `--root` runs the same steps against another built checkout.
 */
import {
  args, createTenant, createUser, cpuPercent, ingest, median, mib, openSse, procSample, publishRecords, settle, sleep, startDistributed,
  startEmbedded, startServers, until, api,
} from './harness.mjs';

const OTHER = Number(args.other ?? 50_000);
const IDLE = Number(args['idle-clients'] ?? 40);
const MODES = (args.mode ?? 'both') === 'both' ? ['embedded', 'distributed'] : [args.mode];

async function replayTimeToOwn(base, tenant, expected) {
  let got = 0;
  let doneAt = 0;
  let t0 = 0;
  // The previous replay's slot is given back once its reader has stopped: wait for it (429 meanwhile).
  const sse = await until('a replay slot', async () => {
    t0 = performance.now();
    return openSse(`${base}/replay?token=${tenant.token}&event_types=data`, (event, _data, at) => {
      if (event === 'data' && ++got === expected) doneAt = at;
    });
  }, 30_000, 50);
  try {
    await until('own events replayed', async () => doneAt > 0, 300_000, 5);
  } finally {
    sse.close();
  }
  return doneAt - t0;
}

async function runMode(mode, servers) {
  const platform = mode === 'embedded' ? await startEmbedded() : await startDistributed(servers.env);
  const out = { mode };
  try {
    const { base } = platform;
    const own = await createTenant(base, 'own');
    const other = await createTenant(base, 'other');
    const stored = async (tenant, n, label) => {
      if (mode === 'embedded') {
        const user = await createUser(base, tenant, `${label}-user`);
        await ingest(base, user, n, { perRequest: Math.min(100, n), tag: label });
      } else await publishRecords(platform.log, tenant, n);
    };
    await stored(own, 20, 'own');
    await settle(platform.pid);
    const runs = async () => {
      for (let i = 0; i < 3; i++) await replayTimeToOwn(base, own, 20); // warm-up (JIT, connections)
      const times = [];
      for (let i = 0; i < 5; i++) times.push(await replayTimeToOwn(base, own, 20));
      return median(times);
    };
    const empty = await runs();
    const t0 = performance.now();
    await stored(other, OTHER, 'other');
    const loadSeconds = (performance.now() - t0) / 1000;
    await settle(platform.pid);
    const busy = await runs();
    Object.assign(out, {
      replay_ms_empty_platform: Number(empty.toFixed(1)),
      [`replay_ms_after_${OTHER}_other`]: Number(busy.toFixed(1)),
      replay_ratio: Number((busy / empty).toFixed(2)),
      other_load_seconds: Number(loadSeconds.toFixed(1)),
    });

    // Idle clients of IDLE other customers, then records of yet another customer.
    await sleep(1000);
    const idleBefore = await cpuPercent(platform.streamsPid, 5000);
    const rssBefore = procSample(platform.streamsPid).rss;
    const clients = [];
    for (let i = 0; i < IDLE; i++) {
      const t = await createTenant(base, `idle-${i}`);
      const stream = await api(base, 'POST', '/streams', t.token, { name: 'main' });
      clients.push(await openSse(`${base}/streams/${stream.id}/connect?token=${t.token}`));
    }
    await sleep(mode === 'distributed' ? 8000 : 2000);
    await settle(platform.streamsPid, 30);
    const idleWith = await cpuPercent(platform.streamsPid, 10_000);
    const rssWith = procSample(platform.streamsPid).rss;
    const unrelated = await createTenant(base, 'unrelated');
    const N = 2000;
    const before = procSample(platform.streamsPid);
    if (mode === 'embedded') {
      const user = await createUser(base, unrelated, 'unrelated-user');
      const a = procSample(platform.streamsPid);
      await ingest(base, user, N, { perRequest: 100, tag: 'unrelated' });
      await settle(platform.streamsPid, 30);
      const b = procSample(platform.streamsPid);
      out.embedded_note = 'embedded: the whole platform (ingestion, push, rules) shares the process, so CPU per unrelated record includes ingesting it';
      out.platform_cpu_ms_per_unrelated_record = Number(((b.cpuMs - a.cpuMs) / N).toFixed(3));
    } else {
      await publishRecords(platform.log, unrelated, N);
      await sleep(5000);
      const after = procSample(platform.streamsPid);
      const idleCpuMs = (idleWith / 100) * (after.at - before.at);
      out.streams_cpu_ms_per_unrelated_record = Number((Math.max(0, after.cpuMs - before.cpuMs - idleCpuMs) / N).toFixed(3));
    }
    for (const c of clients) c.close();
    Object.assign(out, {
      idle_clients: IDLE,
      idle_cpu_percent_without_clients: Number(idleBefore.toFixed(2)),
      idle_cpu_percent_with_clients: Number(idleWith.toFixed(2)),
      idle_cpu_percent_per_client: Number(((idleWith - idleBefore) / IDLE).toFixed(3)),
      rss_mib_before_clients: mib(rssBefore),
      rss_kib_per_idle_client: Number(((rssWith - rssBefore) / IDLE / 1024).toFixed(1)),
    });
  } finally {
    await platform.stop();
  }
  return out;
}

const servers = MODES.includes('distributed') ? startServers() : undefined;
try {
  for (const mode of MODES) console.log(JSON.stringify({ root: args.root ?? '.', ...(await runMode(mode, servers)) }, null, 2));
} finally {
  servers?.stop();
}
process.exit(0);
