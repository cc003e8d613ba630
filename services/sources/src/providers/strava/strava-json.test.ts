import { idOf, parseLossless } from './strava-json';

describe('Strava JSON reading', () => {
  it('parses like JSON.parse, keeping integers beyond 2^53 exact', () => {
    const text = '{"a":[1,-2.5,3e2,true,false,null,"x\\"y\\u00e9"],"id":1234567890987654321,"n":{"__proto__":1}}';
    const v = parseLossless(text) as Record<string, unknown>;
    expect(v.a).toEqual(JSON.parse(text).a);
    expect(v.id).toBe(1234567890987654321n);
    expect(idOf(v.id)).toBe('1234567890987654321');
    expect(Object.getPrototypeOf(v.n)).toBe(Object.prototype);
    expect(Object.keys(v.n as object)).toEqual(['__proto__']);
  });

  it('refuses what is not exactly one JSON value', () => {
    for (const bad of ['', '{"a":1', '[1,]', '{"a":1}x', '01', '<html>', '{"data": [{"id": "trunc']) expect(() => parseLossless(bad)).toThrow(SyntaxError);
  });

  it('reads ids only from non-negative integers or digit strings', () => {
    expect(idOf(134815)).toBe('134815');
    expect(idOf('0042')).toBe('42');
    expect(idOf(1.5)).toBeUndefined();
    expect(idOf(-1)).toBeUndefined();
    expect(idOf('12a')).toBeUndefined();
  });
});
