import { resolveOffset } from './validate-records';

describe('resolveOffset', () => {
  const user = (timezone: string | null, timezone_origin: 'profile' | 'user_defined' = 'profile') => ({ timezone, timezone_origin });
  it('keeps a given offset as source', () => {
    expect(resolveOffset('2024-03-31T12:00:00Z', -18000, user('Europe/Berlin'))).toEqual({ utc_offset: -18000, offset_origin: 'source' });
  });
  it('computes from the profile zone at start_time', () => {
    expect(resolveOffset('2024-03-30T12:00:00Z', undefined, user('Europe/Berlin'))).toEqual({ utc_offset: 3600, offset_origin: 'profile' });
    expect(resolveOffset('2024-03-31T12:00:00Z', undefined, user('Europe/Berlin'))).toEqual({ utc_offset: 7200, offset_origin: 'profile' });
    expect(resolveOffset('2024-03-31T12:00:00Z', undefined, user('Asia/Kolkata', 'user_defined'))).toEqual({ utc_offset: 19800, offset_origin: 'user_defined' });
  });
  it('falls back to 0/profile without a zone', () => {
    expect(resolveOffset('2024-03-31T12:00:00Z', undefined, user(null, 'user_defined'))).toEqual({ utc_offset: 0, offset_origin: 'profile' });
    expect(resolveOffset('2024-03-31T12:00:00Z', undefined, user('Mars/Olympus'))).toEqual({ utc_offset: 0, offset_origin: 'profile' });
  });
});
