/**
 * What a phone source's uploads add up to, and that a report is announced with this service's own
 * time (the users service drops an event not newer than the last it applied for the source).
 */
import { uploadsAfter } from './record-phone-upload.usecase';

describe('uploadsAfter', () => {
  it('gathers the resource types and keeps the latest record end', () => {
    const first = uploadsAfter(undefined, { first: true, resources: ['summary', 'measurement'], last_record_at: '2026-01-02T10:00:00.000Z' });
    expect(first).toEqual({ resources: ['measurement', 'summary'], last_record_at: '2026-01-02T10:00:00.000Z' });
    const older = uploadsAfter(first, { first: false, resources: ['sleep'], last_record_at: '2026-01-01T07:00:00.000Z' });
    expect(older).toEqual({ resources: ['measurement', 'sleep', 'summary'], last_record_at: '2026-01-02T10:00:00.000Z' });
    const deletionsOnly = uploadsAfter(older, { first: false, resources: [], last_record_at: null });
    expect(deletionsOnly).toEqual(older);
    expect(uploadsAfter(undefined, { first: true, resources: [], last_record_at: null })).toEqual({ resources: [], last_record_at: null });
  });
});
