#!/usr/bin/env node
/**
 * FHIR Bulk Data `$export` end to end (embedded runtime, the platform in its own process): an
 * organization of `--users` (1,000) users × `--days` (30) of realistic records ingested through
 * the mobile endpoint, then `Patient/$export` polled to completion and every file downloaded and
 * counted. Reported: the export's Observations/s; the same records read through the REST list
 * endpoints as plain JSON (no mapping) in the same run; the platform's peak RSS during the
 * export; and another customer's `GET …/measurements` p50/p99 while the export runs against idle.
 * Loopback only; every loop is bounded.
 *
 *   node bench/fhir-export.bench.mjs [--users 1000] [--days 30]
 */
import { api, args, createTenant, createUser, mib, procSample, sleep, startEmbedded, until } from './harness.mjs';

const USERS = Number(args.users ?? 1000);
const DAYS = Number(args.days ?? 30);
const DAY_MS = 86_400_000;
const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
const iso = (ms) => new Date(ms).toISOString().slice(0, 19) + 'Z';
const m = (type, unit, value) => ({ type, unit, value, origin: 'device' });

/** One user-day as the mobile endpoint takes it (the same day as bench/fhir-mapping.bench.mjs). */
function userDay(u, d) {
  const day = today - (d + 1) * DAY_MS;
  const r = (type, start, end, source, extra) => ({ type, source, log_id: `${type}-${u}-${d}`, start_time: iso(start), end_time: iso(end), ...extra });
  const withings = { type: 'withings', device: { id: `scale-${u}`, model: 'WBS05', manufacturer: 'Withings', name: 'Body+' } };
  const oura = { type: 'oura', device: { model: 'Gen3', manufacturer: 'Oura' } };
  return [
    r('measurement', day + 7 * 3.6e6, day + 7 * 3.6e6, withings, { metrics: [m('body_weight', 'kg', 70 + (u % 20)), m('body_fat', 'percent', 21.5)] }),
    { ...r('measurement', day + 8 * 3.6e6, day + 8 * 3.6e6, withings, { metrics: [m('blood_pressure_systolic', 'mmHg', 121), m('blood_pressure_diastolic', 'mmHg', 79), m('heart_rate', 'bpm', 64)] }), log_id: `bp-${u}-${d}` },
    r('summary', day, day + DAY_MS - 1000, oura, {
      category: 'daily',
      metrics: [m('steps', 'count', 8000 + u), m('distance', 'm', 6100), m('energy_burned', 'kcal', 2300), m('active_energy_burned', 'kcal', 450), m('basal_energy_burned', 'kcal', 1850),
        m('floors_climbed', 'count', 9), m('resting_heart_rate', 'bpm', 58), m('heart_rate_zone_low', 's', 3600), m('heart_rate_zone_medium', 's', 1200), m('heart_rate_zone_high', 's', 300)],
    }),
    r('sleep', day - 2 * 3.6e6, day + 5 * 3.6e6, oura, {
      metrics: [m('sleep_duration', 's', 24000), m('in_bed_duration', 's', 25200), m('deep_sleep_duration', 's', 5400), m('light_sleep_duration', 's', 13200), m('rem_sleep_duration', 's', 5400), m('sleep_score', 'percent', 82)],
      stages: Array.from({ length: 12 }, (_, i) => ({ stage: ['light', 'deep', 'rem', 'awake'][i % 4], start_time: iso(day - 2 * 3.6e6 + i * 35 * 60_000), end_time: iso(day - 2 * 3.6e6 + (i + 1) * 35 * 60_000) })),
    }),
    r('workout', day + 18 * 3.6e6, day + 18.75 * 3.6e6, { type: 'polar' }, {
      category: 'running', name: 'Evening run',
      metrics: [m('active_duration', 's', 2700), m('distance', 'km', 7.2), m('avg_heart_rate', 'bpm', 148), m('max_heart_rate', 'bpm', 176), m('energy_burned', 'kcal', 560)],
      segments: [0, 1].map((k) => ({ name: `Lap ${k + 1}`, start_time: iso(day + 18 * 3.6e6 + k * 1.35e6), end_time: iso(day + 18 * 3.6e6 + (k + 1) * 1.35e6), metrics: [m('distance', 'km', 3.6), m('avg_heart_rate', 'bpm', 146 + k)] })),
    }),
    r('intraday', day, day + DAY_MS - 1000, oura, { metrics: [{ type: 'heart_rate', unit: 'bpm', origin: 'device', granularity: 'PT15M', samples: Array.from({ length: 72 }, (_, i) => ({ time: iso(day + i * 20 * 60_000), value: 55 + ((i * 7 + u) % 40) })) }] }),
  ];
}

async function pool(n, concurrency, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next < n) await fn(next++); }));
}

const pct = (xs, p) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]; };

const platform = await startEmbedded();
try {
  const base = platform.base;
  const a = await createTenant(base, 'exporter');
  const b = await createTenant(base, 'bystander');
  const started = performance.now();
  await pool(USERS, 8, async (u) => {
    const user = await createUser(base, a, `patient-${String(u).padStart(5, '0')}`);
    const records = Array.from({ length: DAYS }, (_, d) => userDay(u, d)).flat();
    for (let i = 0; i < records.length; i += 1000) await api(base, 'POST', '/mobile/records', user.mobile, { records: records.slice(i, i + 1000) });
  });
  const ingestS = (performance.now() - started) / 1000;
  console.log(`ingested ${USERS * DAYS * 6} records of ${USERS} users in ${ingestS.toFixed(0)} s`);
  const bystander = await createUser(base, b, 'bystander-1');
  await api(base, 'POST', '/mobile/records', bystander.mobile, { records: userDay(0, 0).slice(0, 2) });
  const probePath = `/organizations/${b.organizationId}/users/bystander-1/measurements?start_date=${iso(today - 5 * DAY_MS).slice(0, 10)}`;
  const probe = async (untilDone) => {
    const times = [];
    for (let i = 0; i < 100_000 && !untilDone(); i++) {
      const t = performance.now();
      await api(base, 'GET', probePath, b.token);
      times.push(performance.now() - t);
      await sleep(20);
    }
    return times;
  };
  const idleEnd = Date.now() + 10_000;
  const idle = await probe(() => Date.now() > idleEnd);

  // The same records, read as plain JSON through the REST lists (no mapping), for comparison.
  const restStarted = performance.now();
  let restRecords = 0;
  // A REST read spans at most 30 days: the range in windows of 30.
  const windows = [];
  for (let end = today; end > today - (DAYS + 2) * DAY_MS; end -= 30 * DAY_MS) windows.push([iso(end - 29 * DAY_MS).slice(0, 10), iso(end).slice(0, 10)]);
  await pool(USERS, 4, async (u) => {
    for (const type of ['measurements', 'summaries', 'sleep', 'workouts', 'intraday']) {
      for (const [from, to] of windows) {
        const page = await api(base, 'GET', `/organizations/${a.organizationId}/users/patient-${String(u).padStart(5, '0')}/${type}?start_date=${from}&end_date=${to}`, a.token);
        restRecords += page.data.length;
      }
    }
  });
  const restS = (performance.now() - restStarted) / 1000;

  // The export, with the bystander probing and the platform's memory sampled meanwhile.
  let done = false;
  let peakRss = procSample(platform.pid).rss;
  const sampler = setInterval(() => { peakRss = Math.max(peakRss, procSample(platform.pid).rss); }, 250);
  const exportStarted = performance.now();
  const kick = await fetch(`${base}/organizations/${a.organizationId}/fhir/Patient/$export?token=${a.token}`, { headers: { prefer: 'respond-async' } });
  if (kick.status !== 202) throw new Error(`kick-off: ${kick.status} ${await kick.text()}`);
  const status = kick.headers.get('content-location');
  const busyProbe = probe(() => done);
  const manifest = await until('the export', async () => {
    const res = await fetch(`${status}?token=${a.token}`);
    return res.status === 200 ? res.json() : undefined;
  }, 60 * 60_000, 500);
  const exportS = (performance.now() - exportStarted) / 1000;
  done = true;
  clearInterval(sampler);
  const busy = await busyProbe;
  const downloadStarted = performance.now();
  const counted = {};
  let bytes = 0;
  for (const o of manifest.output) {
    const res = await fetch(o.url);
    let lines = 0;
    for await (const chunk of res.body) { bytes += chunk.length; for (const c of chunk) if (c === 10) lines++; }
    counted[o.type] = { manifest: o.count, lines };
  }
  const downloadS = (performance.now() - downloadStarted) / 1000;
  const observations = counted.Observation?.lines ?? 0;
  console.log(`FHIR $export: ${USERS} users × ${DAYS} days (${USERS * DAYS * 6} records)`);
  for (const [t, c] of Object.entries(counted)) console.log(`  ${t.padEnd(12)} manifest ${c.manifest}, file ${c.lines} lines${c.manifest === c.lines ? '' : '  MISMATCH'}`);
  console.log(`  export       ${exportS.toFixed(1)} s = ${Math.round(observations / exportS).toLocaleString('en')} Observations/s (${Math.round((USERS * DAYS * 6) / exportS).toLocaleString('en')} records/s); download ${mib(bytes)} MiB in ${downloadS.toFixed(1)} s`);
  console.log(`  REST (plain) ${restRecords} records read in ${restS.toFixed(1)} s = ${Math.round(restRecords / restS).toLocaleString('en')} records/s: the export takes ${(exportS / restS).toFixed(1)}× as long for the same records`);
  console.log(`  platform peak RSS during the export ${mib(peakRss)} MiB`);
  console.log(`  another customer's GET: idle p50 ${pct(idle, 50).toFixed(1)} ms p99 ${pct(idle, 99).toFixed(1)} ms (${idle.length}); during the export p50 ${pct(busy, 50).toFixed(1)} ms p99 ${pct(busy, 99).toFixed(1)} ms (${busy.length}) = ${(pct(busy, 99) / pct(idle, 99)).toFixed(2)}× idle p99`);
} finally {
  await platform.stop();
}
