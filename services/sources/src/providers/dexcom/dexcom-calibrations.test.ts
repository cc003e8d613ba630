// ingest-validation directly: @wellstream/testing's index starts a whole platform on import.
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { dexcomAdapter } from './dexcom.adapter';
import { calibration, calibrationsAnswer, fakeHttp, json, settings } from './simulator/dexcom-unit-fixtures';

const fetchCalibrations = (http: ReturnType<typeof fakeHttp>) =>
  dexcomAdapter.fetchWindow(http, settings, 'at-1', 'calibrations', { start: new Date('2025-02-06T00:00:00Z'), end: new Date('2025-02-07T00:00:00Z') }, { userTimezone: null });

describe('Dexcom calibrations → measurement', () => {
  it('maps each calibration to a manual blood_glucose measurement keyed by recordId', async () => {
    const http = fakeHttp(
      json(
        calibrationsAnswer([
          calibration({}),
          calibration({ recordId: 'c2', systemTime: '2025-02-06T19:00:00+00:00', displayTime: '2025-02-06T20:00:00+01:00', displayDevice: 'iOS', unit: 'mmol/L', value: 6.1 }),
        ]),
      ),
    );
    const { records } = await fetchCalibrations(http);
    expect(Object.fromEntries(new URL(http.requests[0].url).searchParams)).toEqual({ startDate: '2025-02-06T00:00:00', endDate: '2025-02-07T00:00:00' });
    expect(records).toEqual([
      {
        type: 'measurement',
        source: { type: 'dexcom', device: { type: 'cgm', manufacturer: 'Dexcom', id: '5a9c2b1e', model: 'g6' } },
        log_id: 'c0ffee00-0000-4000-8000-000000000001',
        start_time: '2025-02-06T07:30:00Z',
        end_time: '2025-02-06T07:30:00Z',
        utc_offset: -8 * 3600,
        metrics: [{ type: 'blood_glucose', unit: 'mg/dl', value: 118, origin: 'manual' }],
      },
      expect.objectContaining({ log_id: 'c2', start_time: '2025-02-06T19:00:00Z', utc_offset: 3600, metrics: [{ type: 'blood_glucose', unit: 'mmol/l', value: 6.1, origin: 'manual' }] }),
    ]);
    assertIngestible(records);
  });

  it('leaves out a calibration in an unknown unit or without a number, and one outside the window', async () => {
    const http = fakeHttp(
      json(
        calibrationsAnswer([
          calibration({ recordId: 'u', unit: 'unknown' }),
          calibration({ recordId: 'n', value: null }),
          calibration({ recordId: 'late', systemTime: '2025-02-07T00:00:00' }),
        ]),
      ),
    );
    expect((await fetchCalibrations(http)).records).toEqual([]);
  });

  it('refuses records without a recordId or systemTime (wrong shape) as bad_response', async () => {
    await expect(fetchCalibrations(fakeHttp(json(calibrationsAnswer([calibration({ recordId: undefined })]))))).rejects.toMatchObject({ kind: 'bad_response' });
    await expect(fetchCalibrations(fakeHttp(json(calibrationsAnswer([calibration({ systemTime: 'noon' })]))))).rejects.toMatchObject({ kind: 'bad_response' });
    await expect(fetchCalibrations(fakeHttp(json({ recordType: 'egv', records: [] })))).rejects.toMatchObject({ kind: 'bad_response' });
  });
});
