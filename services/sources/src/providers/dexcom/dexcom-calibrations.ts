/**
 * Dexcom calibrations (GET /v3/users/self/calibrations) → Wellstream `measurement` records, one per
 * calibration, log_id = Dexcom's recordId. A calibration is a fingerstick meter value the user
 * typed into the CGM (developer.dexcom.com glossary, "Calibration"), so its origin is `manual`.
 */
import { FetchResult, IngestRecord, ProviderError, ProviderHttp, ProviderSettings } from '../provider.port';
import { deviceOf, getRecords, glucoseUnit } from './dexcom-http';
import { requestRange, systemInstant, utcOffsetOf, utcTime } from './dexcom-time';

export const CALIBRATIONS_PATH = '/v3/users/self/calibrations';

export async function fetchCalibrations(
  http: ProviderHttp,
  settings: ProviderSettings,
  accessToken: string,
  window: { start: Date; end: Date; cursor?: string },
): Promise<FetchResult> {
  const from = window.start.getTime();
  const to = window.end.getTime();
  if (from >= to) return { records: [] };
  const range = requestRange(from, to, window.cursor);
  if (!range) throw new ProviderError('bad_request', `Dexcom calibrations: cursor ${window.cursor} is not one of this window`);
  const page = await getRecords(http, settings, accessToken, CALIBRATIONS_PATH, 'calibration', new Date(range.from), new Date(range.to));
  return { records: calibrationsToMeasurements(page.records, range.from, range.to), ...(range.next ? { nextCursor: range.next } : {}) };
}

/** Maps the calibrations with systemTime in [from, to); one without a catalog unit or a number is left out. */
export function calibrationsToMeasurements(records: Record<string, unknown>[], from: number, to: number): IngestRecord[] {
  const out: IngestRecord[] = [];
  for (const raw of records) {
    if (typeof raw.recordId !== 'string' || raw.recordId === '' || raw.recordId.length > 200) {
      throw new ProviderError('bad_response', 'Dexcom calibrations: a record without a usable recordId');
    }
    const ms = systemInstant(raw.systemTime);
    if (ms === undefined) throw new ProviderError('bad_response', `Dexcom calibrations: record ${raw.recordId} has no readable systemTime`);
    if (ms < from || ms >= to) continue;
    const unit = glucoseUnit(raw.unit);
    if (unit === undefined || typeof raw.value !== 'number' || !Number.isFinite(raw.value)) continue;
    const record: IngestRecord = {
      type: 'measurement',
      source: { type: 'dexcom', device: deviceOf(raw) },
      log_id: raw.recordId,
      start_time: utcTime(ms),
      end_time: utcTime(ms),
      metrics: [{ type: 'blood_glucose', unit, value: raw.value, origin: 'manual' }],
    };
    const offset = utcOffsetOf(raw.systemTime, raw.displayTime, raw.displayDevice);
    if (offset !== undefined) record.utc_offset = offset;
    out.push(record);
  }
  return out.sort((a, b) => (a.start_time < b.start_time ? -1 : a.start_time > b.start_time ? 1 : 0));
}
