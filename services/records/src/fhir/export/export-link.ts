/**
 * Short-lived signed links to an export's files, signed as the data exports' links are (HMAC-SHA256
 * with the platform's first gateway key, domain-separated from every other use of it): the link
 * names the job (bound to its organization in the store), the file and when it expires. No token
 * travels in it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a manifest's links work; reading the manifest again gives fresh ones. */
export const EXPORT_LINK_TTL_MS = 3600_000;

const sign = (key: string, subject: string, expires: number) => createHmac('sha256', key).update(`wellstream-fhir-export-link\n${subject}\n${expires}`).digest('hex');
const subjectOf = (jobId: string, file: string) => `${jobId}\n${file}`;

/** `origin` is `<scheme>://<host>`; the link is `/v2/fhir-exports/<job>/<file>?expires&signature`. */
export function exportFileLink(origin: string, key: string, jobId: string, file: string, expiresAtMs: number): string {
  const expires = Math.floor(expiresAtMs / 1000);
  return `${origin}/v2/fhir-exports/${encodeURIComponent(jobId)}/${file}?expires=${expires}&signature=${sign(key, subjectOf(jobId, file), expires)}`;
}

export function checkExportFileLink(key: string, jobId: string, file: string, expires: unknown, signature: unknown, nowMs: number): 'valid' | 'invalid' | 'expired' {
  if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
  const expected = Buffer.from(sign(key, subjectOf(jobId, file), Number(expires)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
  return Number(expires) * 1000 <= nowMs ? 'expired' : 'valid';
}
