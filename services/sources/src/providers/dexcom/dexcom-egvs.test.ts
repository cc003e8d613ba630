// ingest-validation directly: @wellstream/testing's index starts a whole platform on import.
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { ProviderError } from '../provider.port';
import { dexcomAdapter } from './dexcom.adapter';
import { egv, egvsAnswer, fakeHttp, json, settings } from './simulator/dexcom-unit-fixtures';

const ctx = { userTimezone: null };
const window = (start: string, end: string, cursor?: string) => ({ start: new Date(start), end: new Date(end), cursor });
const fetchEgvs = (http: ReturnType<typeof fakeHttp>, w = window('2025-02-06T09:00:00Z', '2025-02-06T11:00:00Z')) =>
  dexcomAdapter.fetchWindow(http, settings, 'at-1', 'egvs', w, ctx);

describe('Dexcom egvs → cgm', () => {
  it('asks for whole hours in the documented time format, with the bearer token', async () => {
    const http = fakeHttp(json(egvsAnswer([])));
    await fetchEgvs(http, window('2025-02-06T08:30:00Z', '2025-02-06T10:10:00Z'));
    expect(http.requests[0]).toEqual({
      method: 'GET',
      url: 'https://sandbox-api.dexcom.com/v3/users/self/egvs?startDate=2025-02-06T09%3A00%3A00&endDate=2025-02-06T11%3A00%3A00',
      headers: { authorization: 'Bearer at-1' },
    });
  });

  it('maps readings to one PT5M series per UTC hour, log_id from the hour, offset from the first reading', async () => {
    const http = fakeHttp(
      json(
        egvsAnswer([
          egv({ recordId: 'r3', systemTime: '2025-02-06T10:02:35', displayTime: '2025-02-06T02:02:35', value: 130 }),
          egv({ recordId: 'r1', systemTime: '2025-02-06T09:12:35', displayTime: '2025-02-06T01:12:35', value: 112 }),
          egv({ recordId: 'r2', systemTime: '2025-02-06T09:17:35', displayTime: '2025-02-06T01:17:35', value: 115.5 }),
        ]),
      ),
    );
    const { records, nextCursor } = await fetchEgvs(http);
    expect(nextCursor).toBeUndefined();
    expect(records).toEqual([
      {
        type: 'cgm',
        source: { type: 'dexcom', device: { type: 'cgm', manufacturer: 'Dexcom', id: '5a9c2b1e', model: 'g7' } },
        log_id: 'egvs:2025-02-06T09:00:00Z',
        start_time: '2025-02-06T09:00:00Z',
        end_time: '2025-02-06T09:17:35Z',
        utc_offset: -8 * 3600,
        metrics: [
          {
            type: 'blood_glucose',
            unit: 'mg/dl',
            origin: 'device',
            granularity: 'PT5M',
            samples: [
              { time: '2025-02-06T09:12:35Z', value: 112 },
              { time: '2025-02-06T09:17:35Z', value: 115.5 },
            ],
          },
        ],
      },
      expect.objectContaining({ log_id: 'egvs:2025-02-06T10:00:00Z', start_time: '2025-02-06T10:00:00Z', end_time: '2025-02-06T10:02:35Z' }),
    ]);
    assertIngestible(records);
  });

  it('leaves out null values and unknown units, keeps mmol/L as its own series, drops same-second duplicates', async () => {
    const http = fakeHttp(
      json(
        egvsAnswer([
          egv({ recordId: 'a', systemTime: '2025-02-06T09:05:00', value: null, status: 'low' }),
          egv({ recordId: 'b', systemTime: '2025-02-06T09:10:00', value: 120, unit: 'unknown' }),
          egv({ recordId: 'c', systemTime: '2025-02-06T09:15:00', value: 6.4, unit: 'mmol/L', displayDevice: 'android', displayTime: '2025-02-06T10:15:00+01:00' }),
          egv({ recordId: 'd', systemTime: '2025-02-06T09:20:00', value: 118 }),
          egv({ recordId: 'e', systemTime: '2025-02-06T09:20:00', value: 119 }),
          egv({ recordId: 'f', systemTime: '2025-02-06T10:00:00', value: null }),
        ]),
      ),
    );
    const { records } = await fetchEgvs(http);
    expect(records).toHaveLength(1);
    expect(records[0].metrics).toEqual([
      expect.objectContaining({ unit: 'mg/dl', samples: [{ time: '2025-02-06T09:20:00Z', value: 118 }] }),
      expect.objectContaining({ unit: 'mmol/l', samples: [{ time: '2025-02-06T09:15:00Z', value: 6.4 }] }),
    ]);
    expect(records[0].utc_offset).toBe(3600);
    assertIngestible(records);
  });

  it('reads zoned times of the mobile apps and omits an offset it cannot know', async () => {
    const http = fakeHttp(
      json(
        egvsAnswer([
          egv({ systemTime: '2025-02-06T09:30:00+00:00', displayTime: '2025-02-06T15:00:00+05:30', displayDevice: 'iOS', transmitterId: null, transmitterGeneration: 'unknown' }),
          egv({ recordId: 'x', systemTime: '2025-02-06T10:30:00', displayTime: '2025-02-06T10:30:00', displayDevice: 'receiver' }),
        ]),
      ),
    );
    const { records } = await fetchEgvs(http);
    expect(records[0]).toMatchObject({ start_time: '2025-02-06T09:00:00Z', utc_offset: 5.5 * 3600, source: { device: { type: 'cgm', manufacturer: 'Dexcom' } } });
    expect(records[0].source.device).not.toHaveProperty('id');
    expect(records[1]).not.toHaveProperty('utc_offset');
    assertIngestible(records);
  });

  it('ignores readings outside the requested hours (window edges are not documented)', async () => {
    const http = fakeHttp(json(egvsAnswer([egv({ systemTime: '2025-02-06T11:00:00' }), egv({ systemTime: '2025-02-06T08:59:59' })])));
    expect((await fetchEgvs(http)).records).toEqual([]);
  });

  it('emits nothing and calls nothing for a window holding no hour start', async () => {
    const http = fakeHttp();
    expect(await fetchEgvs(http, window('2025-02-06T09:10:00Z', '2025-02-06T09:50:00Z'))).toEqual({ records: [] });
    expect(http.requests).toHaveLength(0);
  });

  it('splits a window longer than Dexcom accepts (30 days) with nextCursor', async () => {
    const http = fakeHttp(json(egvsAnswer([])), json(egvsAnswer([egv({ systemTime: '2025-02-04T23:55:00' })])));
    const w = window('2024-12-31T23:30:00Z', '2025-02-05T00:00:00Z');
    const first = await fetchEgvs(http, w);
    expect(first.nextCursor).toBe('2025-01-31T00:00:00.000Z');
    const second = await fetchEgvs(http, { ...w, cursor: first.nextCursor });
    expect(second.nextCursor).toBeUndefined();
    expect(second.records.map((r) => r.log_id)).toEqual(['egvs:2025-02-04T23:00:00Z']);
    expect(http.requests.map((r) => Object.fromEntries(new URL(r.url).searchParams))).toEqual([
      { startDate: '2025-01-01T00:00:00', endDate: '2025-01-31T00:00:00' },
      { startDate: '2025-01-31T00:00:00', endDate: '2025-02-05T00:00:00' },
    ]);
  });

  it('maps every failure to its ProviderError kind and never throws anything else', async () => {
    const kind = async (answer: Parameters<typeof fakeHttp>[0]) => {
      try {
        await fetchEgvs(fakeHttp(answer));
        return 'resolved';
      } catch (e) {
        return e instanceof ProviderError ? `${e.kind}${e.details.retryAfterMs !== undefined ? `:${e.details.retryAfterMs}` : ''}` : `other: ${String(e)}`;
      }
    };
    expect(await kind(json({ error: 'expired' }, 401))).toBe('auth_invalid');
    expect(await kind({ status: 429, headers: { 'retry-after': '120' } })).toBe('rate_limited:120000');
    expect(await kind({ status: 429 })).toBe('rate_limited');
    expect(await kind({ status: 500, body: 'oops' })).toBe('temporary');
    expect(await kind({ status: 503 })).toBe('temporary');
    expect(await kind(json({ error: 'window too long' }, 400))).toBe('bad_response');
    expect(await kind({ status: 200, body: '{"records": [' })).toBe('bad_response');
    expect(await kind(json(null))).toBe('bad_response');
    expect(await kind(json({ recordType: 'egv' }))).toBe('bad_response');
    expect(await kind(json({ records: 'many' }))).toBe('bad_response');
    expect(await kind(json({ records: [null] }))).toBe('bad_response');
    expect(await kind(json({ recordType: 'calibration', records: [] }))).toBe('bad_response');
    expect(await kind(json(egvsAnswer([egv({ systemTime: 12 })])))).toBe('bad_response');
    expect(await kind(json(egvsAnswer([egv({ systemTime: '2025-02-06T09:12:35' })])))).toBe('resolved');
    expect(await kind(json(egvsAnswer([egv({ value: '112' })])))).toBe('resolved');
  });

  it('refuses a cursor it did not hand out and an unknown resource', async () => {
    await expect(fetchEgvs(fakeHttp(), window('2025-02-06T09:00:00Z', '2025-02-06T11:00:00Z', 'bogus'))).rejects.toMatchObject({ kind: 'bad_request' });
    await expect(dexcomAdapter.fetchWindow(fakeHttp(), settings, 'at', 'events', window('2025-02-06T09:00:00Z', '2025-02-06T11:00:00Z'), ctx)).rejects.toMatchObject({ kind: 'bad_request' });
  });
});
