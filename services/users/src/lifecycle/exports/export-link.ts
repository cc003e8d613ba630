/**
 * Short-lived signed download links for export files: the link names the export and when it
 * expires, and an HMAC-SHA256 over both (domain-separated from the gateway's own use of the key)
 * proves the platform handed it out. No token travels in it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const sign = (key: string, exportId: string, expires: number) => createHmac('sha256', key).update(`wellstream-export-link\n${exportId}\n${expires}`).digest('hex');

export function exportLink(publicUrl: string, key: string, exportId: string, expiresAtMs: number): string {
  const expires = Math.floor(expiresAtMs / 1000);
  return `${publicUrl}/v2/exports/${encodeURIComponent(exportId)}/download?expires=${expires}&signature=${sign(key, exportId, expires)}`;
}

/** `valid` when the signature holds; `expired` when it holds but its time has passed. */
export function checkExportLink(key: string, exportId: string, expires: unknown, signature: unknown, nowMs: number): 'valid' | 'invalid' | 'expired' {
  if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
  const expected = Buffer.from(sign(key, exportId, Number(expires)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
  return Number(expires) * 1000 <= nowMs ? 'expired' : 'valid';
}
