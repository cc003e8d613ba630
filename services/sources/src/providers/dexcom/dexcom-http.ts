/**
 * One GET of a v3 data endpoint (/v3/users/self/egvs, /calibrations, /dataRange) with the user's
 * bearer token, and the check of the documented envelope
 * `{recordType, recordVersion, userId, records: [...]}`. Anything else is bad_response.
 */
import { ProviderError, ProviderHttp, ProviderSettings } from '../provider.port';
import { dataError, isObject, parseJson } from './dexcom-errors';
import { dexcomDate } from './dexcom-time';

export interface DexcomPage {
  userId?: string;
  records: Record<string, unknown>[];
}

/** GET `path` and parse it; throws ProviderError for any status but 2xx and for garbage. */
export async function getJson(http: ProviderHttp, settings: ProviderSettings, accessToken: string, path: string, query: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const url = new URL(settings.apiUrl + path);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await http.send({ method: 'GET', url: url.toString(), headers: { authorization: `Bearer ${accessToken}` } });
  if (res.status < 200 || res.status >= 300) throw dataError(res, path);
  const body = parseJson(res, path);
  if (!isObject(body)) throw new ProviderError('bad_response', `Dexcom ${path}: the answer is not an object`, { status: res.status });
  return body;
}

/**
 * The records of `recordType` ("egv", "calibration") between two UTC instants. A record that is
 * not an object, or an answer of another recordType, means we are not reading what we think we
 * are: the whole page is refused rather than half-read.
 */
export async function getRecords(
  http: ProviderHttp,
  settings: ProviderSettings,
  accessToken: string,
  path: string,
  recordType: string,
  from: Date,
  to: Date,
): Promise<DexcomPage> {
  const body = await getJson(http, settings, accessToken, path, { startDate: dexcomDate(from), endDate: dexcomDate(to) });
  const { records } = body;
  if (!Array.isArray(records) || !records.every(isObject)) throw new ProviderError('bad_response', `Dexcom ${path}: no records array`);
  if (body.recordType !== undefined && body.recordType !== recordType) {
    throw new ProviderError('bad_response', `Dexcom ${path}: recordType ${String(body.recordType)}, expected ${recordType}`);
  }
  return { userId: typeof body.userId === 'string' ? body.userId : undefined, records: records as Record<string, unknown>[] };
}

/** Dexcom's glucose units → the catalog's (blood_glucose: mg/dl, mmol/l); `unknown` and others → undefined (left out, never guessed). */
export function glucoseUnit(unit: unknown): 'mg/dl' | 'mmol/l' | undefined {
  if (unit === 'mg/dL') return 'mg/dl';
  if (unit === 'mmol/L') return 'mmol/l';
  return undefined;
}

/** The CGM a record came from, as far as Dexcom says (transmitter id and generation). */
export function deviceOf(record: Record<string, unknown>): { type: string; manufacturer: string; id?: string; model?: string } {
  const device: { type: string; manufacturer: string; id?: string; model?: string } = { type: 'cgm', manufacturer: 'Dexcom' };
  if (typeof record.transmitterId === 'string' && record.transmitterId !== '') device.id = record.transmitterId.slice(0, 200);
  const gen = record.transmitterGeneration;
  if (typeof gen === 'string' && gen !== '' && gen !== 'unknown') device.model = gen.slice(0, 200);
  return device;
}
