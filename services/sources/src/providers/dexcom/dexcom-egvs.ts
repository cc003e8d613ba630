/**
 * Dexcom EGVs (GET /v3/users/self/egvs) → Wellstream `cgm` records: one record per UTC hour that
 * has readings, its blood_glucose samples as a PT5M series (a Dexcom CGM makes one EGV every
 * five minutes).
 *
 * Why an hour and not one record per reading: the cgm schema is a series (`granularity`, up to
 * 1440 `samples`); a record per reading would be 288 one-sample series a day, a sixth of an
 * ingestion request per day each. Why not a day: the current hour is re-sent on every poll until
 * it is complete, and rewriting 12 samples is cheaper than rewriting 288; a zone change (DST,
 * travel) also falls between hours far more often than between days.
 *
 * The log_id is `egvs:<hour start>`, so a re-fetch replaces the hour instead of adding one. A
 * record is only ever built from the whole hour: the request range is widened to whole hours
 * (a half hour would overwrite a full one), and only the hours starting inside the fetch window
 * are emitted, so consecutive windows never emit the same hour twice.
 *
 * Dexcom's recordId has no place in the record: samples are `{time, value}` and ingestion refuses
 * unknown fields. The sample's time stands for it: one sensor stream has one reading per
 * systemTime, and a reading Dexcom revises keeps its time, so it lands in the same sample.
 */
import { FetchResult, IngestRecord, ProviderError, ProviderHttp, ProviderSettings } from '../provider.port';
import { deviceOf, getRecords, glucoseUnit } from './dexcom-http';
import { ceilHour, floorHour, requestRange, systemInstant, utcOffsetOf, utcTime } from './dexcom-time';

export const EGVS_PATH = '/v3/users/self/egvs';
export const egvsLogId = (hourMs: number): string => `egvs:${utcTime(hourMs)}`;

const MAX_SAMPLES = 1440;

interface Reading {
  ms: number;
  value: number;
  unit: 'mg/dl' | 'mmol/l';
  recordId: string;
  raw: Record<string, unknown>;
}

export async function fetchEgvs(
  http: ProviderHttp,
  settings: ProviderSettings,
  accessToken: string,
  window: { start: Date; end: Date; cursor?: string },
): Promise<FetchResult> {
  // Hours that start inside [start, end) are this window's; ask for exactly those hours, whole.
  const from = ceilHour(window.start.getTime());
  const to = ceilHour(window.end.getTime());
  if (from >= to) return { records: [] };
  const range = requestRange(from, to, window.cursor);
  if (!range) throw new ProviderError('bad_request', `Dexcom egvs: cursor ${window.cursor} is not one of this window`);
  const page = await getRecords(http, settings, accessToken, EGVS_PATH, 'egv', new Date(range.from), new Date(range.to));
  return { records: egvsToCgm(page.records, range.from, range.to), ...(range.next ? { nextCursor: range.next } : {}) };
}

/** Maps the readings with systemTime in [from, to) to one cgm record per UTC hour (from/to are whole hours). */
export function egvsToCgm(records: Record<string, unknown>[], from: number, to: number): IngestRecord[] {
  const hours = new Map<number, Reading[]>();
  for (const raw of records) {
    const ms = systemInstant(raw.systemTime);
    // systemTime is what the record is; without it we would be guessing where it belongs.
    if (ms === undefined) throw new ProviderError('bad_response', `Dexcom egvs: record ${String(raw.recordId)} has no readable systemTime`);
    if (ms < from || ms >= to) continue; // Dexcom's window edges are not documented as inclusive or not
    const unit = glucoseUnit(raw.unit);
    // No number (a null value), or a unit the catalog has no name for: left out, never guessed.
    if (unit === undefined || typeof raw.value !== 'number' || !Number.isFinite(raw.value)) continue;
    const hour = floorHour(ms);
    const list = hours.get(hour) ?? [];
    list.push({ ms, value: raw.value, unit, recordId: typeof raw.recordId === 'string' ? raw.recordId : '', raw });
    hours.set(hour, list);
  }
  return [...hours.keys()].sort((a, b) => a - b).map((hour) => hourRecord(hour, hours.get(hour)!));
}

function hourRecord(hour: number, readings: Reading[]): IngestRecord {
  // Time, then recordId: the same answer in any order maps to the same record (and checksum).
  readings.sort((a, b) => a.ms - b.ms || (a.recordId < b.recordId ? -1 : a.recordId > b.recordId ? 1 : 0));
  const series = new Map<string, { time: string; value: number }[]>();
  for (const r of readings) {
    const samples = series.get(r.unit) ?? [];
    const time = utcTime(r.ms);
    // Two readings at one second (say a receiver and a phone uploading the same sensor): one sample.
    if (samples.length && samples[samples.length - 1].time === time) continue;
    samples.push({ time, value: r.value });
    series.set(r.unit, samples);
  }
  const first = readings[0];
  const last = readings[readings.length - 1];
  const record: IngestRecord = {
    type: 'cgm',
    source: { type: 'dexcom', device: deviceOf(first.raw) },
    log_id: egvsLogId(hour),
    start_time: utcTime(hour),
    end_time: utcTime(last.ms),
    metrics: [...series.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([unit, samples]) => {
        if (samples.length > MAX_SAMPLES) throw new ProviderError('bad_response', `Dexcom egvs: ${samples.length} readings in one hour`);
        return { type: 'blood_glucose', unit, origin: 'device' as const, granularity: 'PT5M' as const, samples };
      }),
  };
  // utc_offset is the local time at start_time: the hour's first reading speaks for it.
  const offset = utcOffsetOf(first.raw.systemTime, first.raw.displayTime, first.raw.displayDevice);
  if (offset !== undefined) record.utc_offset = offset;
  return record;
}
