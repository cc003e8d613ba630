/**
 * Signed links: a link made for one purpose opens nothing of another (the same key signs export
 * downloads, FHIR export files and the gateway's assertions), and links made before the links
 * shared this code keep working (the signed text is unchanged).
 */
import { createHmac } from 'node:crypto';
import { checkSignedLink, signedLinkQuery } from './signed-link';

const KEY = 'k'.repeat(40);
const at = Date.parse('2026-01-01T00:00:00Z');
const parts = (query: string) => Object.fromEntries(new URLSearchParams(query)) as { expires: string; signature: string };

describe('signed links', () => {
  const link = parts(signedLinkQuery(KEY, 'purpose-a', 'job_1\nfile.ndjson', at + 60_000));

  it('holds for its purpose and subject until its time', () => {
    expect(checkSignedLink(KEY, 'purpose-a', 'job_1\nfile.ndjson', link.expires, link.signature, at)).toBe('valid');
    expect(checkSignedLink(KEY, 'purpose-a', 'job_1\nfile.ndjson', link.expires, link.signature, at + 60_000)).toBe('expired');
  });

  it('opens nothing of another purpose or subject', () => {
    expect(checkSignedLink(KEY, 'purpose-b', 'job_1\nfile.ndjson', link.expires, link.signature, at)).toBe('invalid');
    expect(checkSignedLink(KEY, 'purpose-a', 'job_1\nother.ndjson', link.expires, link.signature, at)).toBe('invalid');
  });

  it('signs the same text as the links issued before it', () => {
    const expires = Math.floor((at + 60_000) / 1000);
    const before = createHmac('sha256', KEY).update(`wellstream-export-link\nexp_1\n${expires}`).digest('hex');
    expect(signedLinkQuery(KEY, 'wellstream-export-link', 'exp_1', at + 60_000)).toBe(`expires=${expires}&signature=${before}`);
  });
});
