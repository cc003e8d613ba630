/**
 * The day's SpO2 (daily-oxygen-saturation, a Daily record): listed by its `date` filter over whole
 * days, one `measurement` a day with `oxygen_saturation`, against a scripted ProviderHttp.
 */
import { assertIngestible } from '../../../../../libs/testing/src/ingest-validation';
import { isProviderError, ProviderRequest, ProviderSettings } from '../provider.port';
import { fetchDailyOxygenSaturation } from './google-health-vitals';

const settings = { apiUrl: 'https://health.example.test' } as ProviderSettings;
const day = (y: number, m: number, d: number) => ({ year: y, month: m, day: d });

function scripted(...answers: unknown[]) {
  const sent: ProviderRequest[] = [];
  return { sent, http: { send: async (req: ProviderRequest) => (sent.push(req), { status: 200, headers: {}, body: typeof answers[0] === 'string' ? (answers.shift() as string) : JSON.stringify(answers.shift() ?? {}) }) } };
}

const kindOf = (p: Promise<unknown>) => p.then(() => 'no error', (e) => (isProviderError(e) ? e.kind : String(e)));
const window = { start: new Date('2026-11-20T05:00:00Z'), end: new Date('2026-11-22T03:00:00Z') };

describe('Google Health daily SpO2 (daily-oxygen-saturation)', () => {
  it('lists whole civil days by the date filter, page by page, and maps one measurement a day', async () => {
    const { sent, http } = scripted(
      { dataPoints: [{ dailyOxygenSaturation: { date: day(2026, 11, 20), averagePercentage: 95.6, lowerBoundPercentage: 93, upperBoundPercentage: 98 } }], nextPageToken: 'p2' },
      { dataPoints: [{ dailyOxygenSaturation: { date: day(2026, 11, 21), averagePercentage: 96.25, lowerBoundPercentage: 94, upperBoundPercentage: 99 } }] },
    );
    const { records } = await fetchDailyOxygenSaturation(http, settings, 'tok', window);
    const first = new URL(sent[0].url);
    expect([sent[0].method, first.pathname]).toEqual(['GET', '/v4/users/me/dataTypes/daily-oxygen-saturation/dataPoints']);
    expect(first.searchParams.get('filter')).toBe('daily_oxygen_saturation.date >= "2026-11-20" AND daily_oxygen_saturation.date < "2026-11-23"');
    expect(new URL(sent[1].url).searchParams.get('pageToken')).toBe('p2');
    expect(records).toEqual([
      { type: 'measurement', source: { type: 'google_health' }, log_id: 'daily_oxygen_saturation:2026-11-20', start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-20T00:00:00Z', metrics: [{ type: 'oxygen_saturation', unit: 'percent', value: 95.6, origin: 'device' }] },
      expect.objectContaining({ log_id: 'daily_oxygen_saturation:2026-11-21', metrics: [{ type: 'oxygen_saturation', unit: 'percent', value: 96.25, origin: 'device' }] }),
    ]);
    assertIngestible(records);
  });

  it('keeps one record a day when two sources report the same day (the first listed)', async () => {
    const { http } = scripted({ dataPoints: [95, 97].map((averagePercentage) => ({ dailyOxygenSaturation: { date: day(2026, 11, 20), averagePercentage } })) });
    const { records } = await fetchDailyOxygenSaturation(http, settings, 'tok', window);
    expect(records.map((r) => [r.log_id, (r.metrics[0] as { value: number }).value])).toEqual([['daily_oxygen_saturation:2026-11-20', 95]]);
  });

  it('a point without a date, a percentage out of 0–100, or garbage is bad_response', async () => {
    expect(await kindOf(fetchDailyOxygenSaturation(scripted({ dataPoints: [{ dailyOxygenSaturation: { averagePercentage: 95 } }] }).http, settings, 't', window))).toBe('bad_response');
    expect(await kindOf(fetchDailyOxygenSaturation(scripted({ dataPoints: [{ dailyOxygenSaturation: { date: day(2026, 11, 20), averagePercentage: 140 } }] }).http, settings, 't', window))).toBe('bad_response');
    expect(await kindOf(fetchDailyOxygenSaturation(scripted('<html>').http, settings, 't', window))).toBe('bad_response');
  });
});
