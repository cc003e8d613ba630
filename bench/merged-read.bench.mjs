#!/usr/bin/env node
/**
 * Merged reads: a 30-day summaries read with `merged=true` for a user with three sources (a ring,
 * a phone and a second phone app: 90 daily summaries of 12 metrics each, every day overlapping)
 * against the unmerged read of the same records, in the same run, through the gateway, embedded
 * runtime, the platform in its own process. The two reads alternate in rounds so drift of the host
 * falls on both. Prints each read's p50/p99 and mean, their ratio (target: merged within 2× of
 * unmerged), and the answers' sizes.
 *
 *   node bench/merged-read.bench.mjs [--reads 400 (in all, half of each)] [--root DIR]
 */
import { args, createTenant, createUser, median, pct, sleep, startEmbedded, until } from './harness.mjs';

const READS = Number(args.reads ?? 400);
const DAYS = 30;
const SOURCES = ['oura', 'apple_health', 'samsung_health'];
const METRICS = [
  ['steps', 'count', 8000], ['distance', 'm', 6000], ['energy_burned', 'kcal', 2300], ['active_energy_burned', 'kcal', 500],
  ['basal_energy_burned', 'kcal', 1800], ['floors_climbed', 'count', 9], ['elevation', 'm', 30], ['resting_heart_rate', 'bpm', 58],
  ['heart_rate_zone_low', 's', 3000], ['heart_rate_zone_medium', 's', 1200], ['heart_rate_zone_high', 's', 300], ['heart_rate_zone_very_low', 's', 40000],
];

const platform = await startEmbedded({ WELLSTREAM_DEMO_BACKFILL_DAYS: '0' });
try {
  const tenant = await createTenant(platform.base, 'merged-bench');
  const user = await createUser(platform.base, tenant, 'merged-bench-user');
  const day = (i) => new Date(Date.now() - (DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10);
  const records = [];
  for (const [s, source] of SOURCES.entries()) {
    for (let i = 0; i < DAYS; i++) {
      records.push({
        type: 'summary',
        source: { type: source },
        log_id: `${source}-${day(i)}`,
        start_time: `${day(i)}T00:00:00Z`,
        end_time: `${day(i)}T23:59:00Z`,
        utc_offset: 0,
        category: 'daily',
        metrics: METRICS.map(([type, unit, v]) => ({ type, unit, value: Math.round(v * (0.9 + 0.05 * s + (i % 7) / 100)), origin: 'device' })),
      });
    }
  }
  await until('the user in records', async () => {
    const res = await fetch(`${platform.base}/mobile/records?token=${user.mobile}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ records }) });
    await res.arrayBuffer();
    return res.status === 200;
  });
  const path = `${platform.base}/organizations/${tenant.organizationId}/users/${user.uid}/summaries?start_date=${day(0)}&end_date=${day(DAYS - 1)}&token=${tenant.token}`;
  const read = async (url) => {
    const t0 = performance.now();
    const res = await fetch(url);
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${res.status} ${body}`);
    return { ms: performance.now() - t0, bytes: body.length, count: JSON.parse(body).data.length };
  };
  // Warm both paths (JIT, the gateway's caches) before measuring.
  for (let i = 0; i < 50; i++) {
    await read(path);
    await read(`${path}&merged=true`);
  }
  const plain = [];
  const merged = [];
  let plainShape;
  let mergedShape;
  for (let round = 0; round < READS / 20; round++) {
    for (let i = 0; i < 10; i++) plain.push((plainShape = await read(path)).ms);
    for (let i = 0; i < 10; i++) merged.push((mergedShape = await read(`${path}&merged=true`)).ms);
    await sleep(5);
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const line = (label, xs, shape) =>
    `${label.padEnd(26)} p50 ${median(xs).toFixed(2)} ms  p99 ${pct(xs, 99).toFixed(2)} ms  mean ${mean(xs).toFixed(2)} ms  (${shape.count} records, ${(shape.bytes / 1024).toFixed(1)} KiB)`;
  console.log(`30-day summaries read, ${SOURCES.length} sources (${records.length} records of ${METRICS.length} metrics), ${plain.length} reads each, alternating`);
  console.log(line('unmerged', plain, plainShape));
  console.log(line('merged=true', merged, mergedShape));
  console.log(`merged / unmerged: p50 ${(median(merged) / median(plain)).toFixed(2)}×, mean ${(mean(merged) / mean(plain)).toFixed(2)}× (target ≤ 2×)`);
} finally {
  await platform.stop();
}
