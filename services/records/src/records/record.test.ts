import { canonicalJson, checksumOf, NormalizedContent, recordIdOf } from './record';

describe('record identity and checksum', () => {
  it('canonical JSON sorts keys at every level and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ y: 1, x: 2 }], c: undefined } })).toBe('{"a":{"d":[{"x":2,"y":1}]},"b":1}');
  });

  it('the checksum ignores key order but not content', () => {
    const content = { type: 'measurement', log_id: 'l', metrics: [{ type: 'body_weight', unit: 'kg', value: 70 }], deleted: false } as unknown as NormalizedContent;
    const reordered = Object.fromEntries(Object.entries(content).reverse()) as NormalizedContent;
    expect(checksumOf(reordered)).toBe(checksumOf(content));
    expect(checksumOf({ ...content, deleted: true })).not.toBe(checksumOf(content));
  });

  it('derives a stable UUID-shaped id from (user, source, log id)', () => {
    const id = recordIdOf('u1', 'polar', 'log-1');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(recordIdOf('u1', 'polar', 'log-1')).toBe(id);
    expect(recordIdOf('u1', 'oura', 'log-1')).not.toBe(id);
    expect(recordIdOf('u2', 'polar', 'log-1')).not.toBe(id);
  });
});
