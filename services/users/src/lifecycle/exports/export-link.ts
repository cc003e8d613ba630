/** Download links for export files, signed by the contracts's signed links. */
import { checkSignedLink, SignedLinkCheck, signedLinkQuery } from '@wellstream/contracts';

const PURPOSE = 'wellstream-export-link';

export function exportLink(publicUrl: string, key: string, exportId: string, expiresAtMs: number): string {
  return `${publicUrl}/v2/exports/${encodeURIComponent(exportId)}/download?${signedLinkQuery(key, PURPOSE, exportId, expiresAtMs)}`;
}

export function checkExportLink(key: string, exportId: string, expires: unknown, signature: unknown, nowMs: number): SignedLinkCheck {
  return checkSignedLink(key, PURPOSE, exportId, expires, signature, nowMs);
}
