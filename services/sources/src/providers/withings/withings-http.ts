/**
 * How every Withings web service is called: POST to a path under the API base with
 * `application/x-www-form-urlencoded` parameters (one of them `action`) and the user's access
 * token as `Authorization: Bearer …` (API reference code samples for measure, v2/measure, v2/sleep
 * and notify). Also the defensive readers the mappers use, so a wrong type becomes "field absent"
 * and never a TypeError.
 */
import { ProviderHttp, ProviderSettings } from '../provider.port';
import { readEnvelope } from './withings-status';

export const PATHS = {
  measure: '/measure',
  measureV2: '/v2/measure',
  sleepV2: '/v2/sleep',
  notify: '/notify',
  signatureV2: '/v2/signature',
} as const;

export async function callWithings(
  http: ProviderHttp,
  settings: ProviderSettings,
  accessToken: string,
  path: string,
  form: Record<string, string>,
): Promise<Record<string, unknown>> {
  const res = await http.send({
    method: 'POST',
    url: `${settings.apiUrl}${path}`,
    headers: { authorization: `Bearer ${accessToken}` },
    form,
  });
  return readEnvelope(res, `withings ${path} ${form.action}`, 'data');
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** Withings ids arrive as numbers (grpid, id) or strings (userid in some answers). */
export const idOf = (v: unknown): string | undefined => (typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' && /^\d+$/.test(v) ? v : undefined);
export const arrayOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * Withings pagination: `more` (1/0 on getmeas, true/false on v2 services) and `offset`. The next
 * cursor is the offset to send back, only when more pages exist.
 */
export function nextCursorOf(body: Record<string, unknown>): string | undefined {
  const more = body.more === true || body.more === 1;
  const offset = int(body.offset);
  return more && offset !== undefined ? String(offset) : undefined;
}

/** A cursor we produced is a non-negative integer string; anything else is ignored (first page). */
export const offsetParam = (cursor: string | undefined): Record<string, string> => (cursor && /^\d+$/.test(cursor) ? { offset: cursor } : {});

/** A device as the ingestion `source.device` wants it, from Withings' model / hash_deviceid fields. */
export function deviceOf(model: unknown, hashDeviceId: unknown): { name?: string; id?: string; manufacturer: string } | undefined {
  const name = str(model)?.slice(0, 200);
  const id = str(hashDeviceId)?.slice(0, 200);
  if (!name && !id) return undefined;
  return { manufacturer: 'Withings', ...(name ? { name } : {}), ...(id ? { id } : {}) };
}
