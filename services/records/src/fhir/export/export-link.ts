/**
 * Short-lived links to a FHIR export's files, signed as the data exports' links are (libs/contracts's
 * signed links, with a purpose of their own): the link names the job (bound to its organization in
 * the store), the file and when it expires.
 */
import { checkSignedLink, SignedLinkCheck, signedLinkQuery } from '@wellstream/contracts';

/** How long a manifest's links work; reading the manifest again gives fresh ones. */
export const EXPORT_LINK_TTL_MS = 3600_000;

const PURPOSE = 'wellstream-fhir-export-link';
const subjectOf = (jobId: string, file: string) => `${jobId}\n${file}`;

/** `origin` is `<scheme>://<host>`; the link is `/v2/fhir-exports/<job>/<file>?expires&signature`. */
export function exportFileLink(origin: string, key: string, jobId: string, file: string, expiresAtMs: number): string {
  return `${origin}/v2/fhir-exports/${encodeURIComponent(jobId)}/${file}?${signedLinkQuery(key, PURPOSE, subjectOf(jobId, file), expiresAtMs)}`;
}

export function checkExportFileLink(key: string, jobId: string, file: string, expires: unknown, signature: unknown, nowMs: number): SignedLinkCheck {
  return checkSignedLink(key, PURPOSE, subjectOf(jobId, file), expires, signature, nowMs);
}
