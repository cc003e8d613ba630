/**
 * The signed export link: valid until its time, 'expired' after (the route answers 410), and
 * 'invalid' when any part of it was changed or is malformed (401).
 */
import { checkExportLink, exportLink } from './export-link';

const KEY = 'k'.repeat(40);
const parse = (url: string) => {
  const u = new URL(url);
  return { id: decodeURIComponent(u.pathname.split('/')[3]), expires: u.searchParams.get('expires')!, signature: u.searchParams.get('signature')! };
};

describe('export links', () => {
  const at = Date.parse('2026-01-01T00:00:00Z');
  const link = parse(exportLink('http://127.0.0.1:8080', KEY, 'exp_1', at + 60_000));

  it('holds until its time and expires after', () => {
    expect(checkExportLink(KEY, link.id, link.expires, link.signature, at)).toBe('valid');
    expect(checkExportLink(KEY, link.id, link.expires, link.signature, at + 59_999)).toBe('valid');
    expect(checkExportLink(KEY, link.id, link.expires, link.signature, at + 60_000)).toBe('expired');
  });

  it('refuses a changed export, time, signature or key, and malformed parts', () => {
    expect(checkExportLink(KEY, 'exp_2', link.expires, link.signature, at)).toBe('invalid');
    expect(checkExportLink(KEY, link.id, String(Number(link.expires) + 3600), link.signature, at)).toBe('invalid');
    expect(checkExportLink(KEY, link.id, link.expires, link.signature.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')), at)).toBe('invalid');
    expect(checkExportLink('x'.repeat(40), link.id, link.expires, link.signature, at)).toBe('invalid');
    for (const [expires, signature] of [[undefined, link.signature], [link.expires, undefined], ['12a', link.signature], [link.expires, 'zz'], [['1'], link.signature]]) {
      expect(checkExportLink(KEY, link.id, expires, signature, at)).toBe('invalid');
    }
  });
});
