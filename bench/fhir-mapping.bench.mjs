#!/usr/bin/env node
/**
 * The FHIR mapping's cost (libs/fhir): an organization's records (default 1,000 users × 30 days of
 * realistic data: a weighing, a blood-pressure reading, a daily summary, a night's sleep with
 * stages, a workout with laps, heart rate every 20 minutes) written as FHIR Observation NDJSON,
 * against writing the same records as plain NDJSON with no mapping, in the same run. Records are
 * made and written one user-day at a time with the file stream's backpressure, so memory stays
 * flat: peak RSS is reported for both passes. Only the mapping and the encoding: no HTTP, no
 * store (the Bulk Data export that would serve these files is not built yet).
 *
 *   node bench/fhir-mapping.bench.mjs            (BENCH_FHIR_USERS=1000 BENCH_FHIR_DAYS=30)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { observationsOf } = require(path.join(root, 'libs/fhir/dist/index.js'));

const USERS = Number(process.env.BENCH_FHIR_USERS ?? 1000);
const DAYS = Number(process.env.BENCH_FHIR_DAYS ?? 30);
const START = Date.parse('2026-10-01T00:00:00Z');

const iso = (ms) => new Date(ms).toISOString().slice(0, 19) + 'Z';
let seq = 0;
const uuid = () => {
  const h = (++seq).toString(16).padStart(12, '0');
  return `7c0e5a10-1b2c-5d3e-8f40-${h}`;
};

/** One user-day of records as the REST API answers them. */
function userDay(u, d) {
  const user = { uid: `patient-${String(u).padStart(5, '0')}`, user_id: `5f0c2a4e-0000-4000-8000-${String(u).padStart(12, '0')}`, organization_id: 'org-bench' };
  const day = START + d * 86_400_000;
  const common = (type, start, end, source, extra) => ({
    id: uuid(), type, version: '1.0', checksum: 'c0ffee', log_id: `${type}-${u}-${d}-${seq}`, start_time: iso(start), end_time: iso(end),
    utc_offset: 3600, offset_origin: 'profile', user, source, created_at: new Date(end + 60_000).toISOString(), deleted_at: null, user_notes: [], tags: [], ...extra,
  });
  const withings = { type: 'withings', device: { id: `scale-${u}`, model: 'WBS05', manufacturer: 'Withings', name: 'Body+' } };
  const oura = { type: 'oura', device: { model: 'Gen3', manufacturer: 'Oura' } };
  const polar = { type: 'polar' };
  const m = (type, unit, value) => ({ type, unit, value, origin: 'device' });
  const hr = Array.from({ length: 72 }, (_, i) => ({ time: iso(day + i * 20 * 60_000), value: 55 + ((i * 7 + u) % 40) }));
  return [
    common('measurement', day + 7 * 3.6e6, day + 7 * 3.6e6, withings, { metrics: [m('body_weight', 'kg', 70 + (u % 20)), m('body_fat', 'percent', 21.5)] }),
    common('measurement', day + 8 * 3.6e6, day + 8 * 3.6e6, withings, { metrics: [m('blood_pressure_systolic', 'mmHg', 121), m('blood_pressure_diastolic', 'mmHg', 79), m('heart_rate', 'bpm', 64)] }),
    common('summary', day, day + 86_400_000 - 1000, oura, {
      category: 'daily', segments: [],
      metrics: [m('steps', 'count', 8000 + u), m('distance', 'm', 6100), m('energy_burned', 'kcal', 2300), m('active_energy_burned', 'kcal', 450), m('basal_energy_burned', 'kcal', 1850),
        m('floors_climbed', 'count', 9), m('resting_heart_rate', 'bpm', 58), m('heart_rate_zone_low', 's', 3600), m('heart_rate_zone_medium', 's', 1200), m('heart_rate_zone_high', 's', 300)],
    }),
    common('sleep', day - 2 * 3.6e6, day + 5 * 3.6e6, oura, {
      metrics: [m('sleep_duration', 's', 24000), m('in_bed_duration', 's', 25200), m('deep_sleep_duration', 's', 5400), m('light_sleep_duration', 's', 13200), m('rem_sleep_duration', 's', 5400), m('sleep_score', 'percent', 82)],
      stages: Array.from({ length: 12 }, (_, i) => ({ stage: ['light', 'deep', 'rem', 'awake'][i % 4], start_time: iso(day - 2 * 3.6e6 + i * 35 * 60_000), end_time: iso(day - 2 * 3.6e6 + (i + 1) * 35 * 60_000) })),
    }),
    common('workout', day + 18 * 3.6e6, day + 18.75 * 3.6e6, polar, {
      category: 'running', name: 'Evening run',
      metrics: [m('active_duration', 's', 2700), m('distance', 'km', 7.2), m('avg_heart_rate', 'bpm', 148), m('max_heart_rate', 'bpm', 176), m('energy_burned', 'kcal', 560)],
      segments: [0, 1].map((k) => ({ name: `Lap ${k + 1}`, start_time: iso(day + 18 * 3.6e6 + k * 1.35e6), end_time: iso(day + 18 * 3.6e6 + (k + 1) * 1.35e6), metrics: [m('distance', 'km', 3.6), m('avg_heart_rate', 'bpm', 146 + k)] })),
    }),
    common('intraday', day, day + 86_400_000 - 1000, oura, { metrics: [{ type: 'heart_rate', unit: 'bpm', origin: 'device', granularity: 'PT15M', samples: hr }] }),
  ];
}

async function pass(name, lines) {
  const file = path.join(os.tmpdir(), `fhir-bench-${process.pid}-${name}.ndjson`);
  const out = fs.createWriteStream(file);
  seq = 0;
  let count = 0;
  let bytes = 0;
  let peak = process.memoryUsage().rss;
  const started = process.hrtime.bigint();
  for (let u = 0; u < USERS; u++) {
    for (let d = 0; d < DAYS; d++) {
      let chunk = '';
      for (const r of userDay(u, d)) for (const line of lines(r)) { chunk += line; count++; }
      bytes += Buffer.byteLength(chunk);
      if (!out.write(chunk)) await once(out, 'drain');
    }
    if (u % 50 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  }
  out.end();
  await once(out, 'finish');
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  peak = Math.max(peak, process.memoryUsage().rss);
  fs.rmSync(file);
  return { name, count, bytes, seconds, peakMb: peak / 1048576 };
}

const plain = await pass('plain', (r) => [JSON.stringify(r) + '\n']);
const fhir = await pass('fhir', (r) => observationsOf(r).map((o) => JSON.stringify(o) + '\n'));
const records = USERS * DAYS * 6;
console.log(`FHIR mapping: ${USERS} users × ${DAYS} days = ${records.toLocaleString('en')} records`);
for (const p of [plain, fhir]) {
  console.log(`  ${p.name.padEnd(6)} ${p.count.toLocaleString('en').padStart(10)} lines  ${(p.bytes / 1048576).toFixed(0).padStart(6)} MiB  ${p.seconds.toFixed(1).padStart(6)} s  ${Math.round(records / p.seconds).toLocaleString('en').padStart(8)} records/s  ${Math.round(p.count / p.seconds).toLocaleString('en').padStart(9)} lines/s  peak RSS ${p.peakMb.toFixed(0)} MiB`);
}
console.log(`  FHIR takes ${(fhir.seconds / plain.seconds).toFixed(1)}× the time of plain NDJSON for the same records (${(fhir.count / records).toFixed(1)} Observations per record)`);
