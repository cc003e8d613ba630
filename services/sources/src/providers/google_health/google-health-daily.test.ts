/**
 * The dailyRollUp read on its own: the request Google documents (a civil range of whole days,
 * one-day windows, POST) and its answers, well-formed or not, against a scripted ProviderHttp.
 */
import { isProviderError, ProviderRequest, ProviderSettings } from '../provider.port';
import { fetchDailySummary } from './google-health-daily';

const settings = { apiUrl: 'https://health.example.test' } as ProviderSettings;
const civil = (y: number, m: number, d: number) => ({ date: { year: y, month: m, day: d } });

function scripted(answer: (req: ProviderRequest) => unknown) {
  const sent: ProviderRequest[] = [];
  return { sent, http: { send: async (req: ProviderRequest) => (sent.push(req), { status: 200, headers: {}, body: typeof answer(req) === 'string' ? (answer(req) as string) : JSON.stringify(answer(req)) }) } };
}

const kindOf = (p: Promise<unknown>) => p.then(() => 'no error', (e) => (isProviderError(e) ? e.kind : String(e)));

describe('Google Health daily summaries (dailyRollUp)', () => {
  it('asks each data type for whole civil days and merges the values into one record a day', async () => {
    const { sent, http } = scripted((req) =>
      req.url.includes('/steps/') ? { rollupDataPoints: [{ civilStartTime: civil(2026, 11, 20), civilEndTime: civil(2026, 11, 21), steps: { countSum: '8123' } }] } : { rollupDataPoints: [] },
    );
    const { records } = await fetchDailySummary(http, settings, 'tok', { start: new Date('2026-11-20T05:00:00Z'), end: new Date('2026-11-21T03:00:00Z') });
    expect(sent.map((r) => [r.method, new URL(r.url).pathname])).toEqual([
      ...['steps', 'distance', 'floors', 'active-energy-burned', 'total-calories'].map((t) => ['POST', `/v4/users/me/dataTypes/${t}/dataPoints:dailyRollUp`]),
      ['GET', '/v4/users/me/dataTypes/daily-resting-heart-rate/dataPoints'],
    ]);
    expect(sent[0].json).toEqual({ range: { start: civil(2026, 11, 20), end: civil(2026, 11, 22) }, windowSizeDays: 1 });
    expect(records).toEqual([
      expect.objectContaining({ type: 'summary', log_id: 'daily_summary:2026-11-20', start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-21T00:00:00Z', metrics: [{ type: 'steps', unit: 'count', value: 8123, origin: 'device' }] }),
    ]);
  });

  it("adds the day's resting heart rate, listed by the Daily record's date filter over the same whole days", async () => {
    const { sent, http } = scripted((req) => {
      if (req.url.includes('/steps/')) return { rollupDataPoints: [{ civilStartTime: civil(2026, 11, 20), civilEndTime: civil(2026, 11, 21), steps: { countSum: '8123' } }] };
      if (req.url.includes('/daily-resting-heart-rate/')) {
        return { dataPoints: [{ dailyRestingHeartRate: { date: { year: 2026, month: 11, day: 20 }, beatsPerMinute: '57' } }, { dailyRestingHeartRate: { date: { year: 2026, month: 11, day: 21 }, beatsPerMinute: '59' } }] };
      }
      return { rollupDataPoints: [] };
    });
    const { records } = await fetchDailySummary(http, settings, 'tok', { start: new Date('2026-11-20T05:00:00Z'), end: new Date('2026-11-21T03:00:00Z') });
    const list = new URL(sent[5].url);
    expect(list.searchParams.get('filter')).toBe('daily_resting_heart_rate.date >= "2026-11-20" AND daily_resting_heart_rate.date < "2026-11-22"');
    expect(records).toEqual([
      expect.objectContaining({ log_id: 'daily_summary:2026-11-20', metrics: [{ type: 'steps', unit: 'count', value: 8123, origin: 'device' }, { type: 'resting_heart_rate', unit: 'bpm', value: 57, origin: 'device' }] }),
      expect.objectContaining({ log_id: 'daily_summary:2026-11-21', metrics: [{ type: 'resting_heart_rate', unit: 'bpm', value: 59, origin: 'device' }] }),
    ]);
  });

  it('a resting heart rate without a calendar date, or not a number, is bad_response', async () => {
    const window = { start: new Date('2026-11-20T00:00:00Z'), end: new Date('2026-11-21T00:00:00Z') };
    const answer = (point: unknown) => scripted((req) => (req.url.includes('/daily-resting-heart-rate/') ? { dataPoints: [point] } : { rollupDataPoints: [] })).http;
    expect(await kindOf(fetchDailySummary(answer({ dailyRestingHeartRate: { beatsPerMinute: '57' } }), settings, 't', window))).toBe('bad_response');
    expect(await kindOf(fetchDailySummary(answer({ dailyRestingHeartRate: { date: { year: 2026, month: 11, day: 20 }, beatsPerMinute: 'low' } }), settings, 't', window))).toBe('bad_response');
  });

  it('an answer that is not a rollup, or a day that is no calendar date, is bad_response', async () => {
    const window = { start: new Date('2026-11-20T00:00:00Z'), end: new Date('2026-11-21T00:00:00Z') };
    expect(await kindOf(fetchDailySummary(scripted(() => '{"rollupDataPoints": 3}').http, settings, 't', window))).toBe('bad_response');
    expect(await kindOf(fetchDailySummary(scripted(() => '<html>').http, settings, 't', window))).toBe('bad_response');
    const feb30 = { rollupDataPoints: [{ civilStartTime: civil(2026, 2, 30), steps: { countSum: '1' } }] };
    expect(await kindOf(fetchDailySummary(scripted(() => feb30).http, settings, 't', window))).toBe('bad_response');
    expect(await kindOf(fetchDailySummary(scripted(() => ({ rollupDataPoints: [{ civilStartTime: civil(2026, 11, 20), steps: { countSum: 'many' } }] })).http, settings, 't', window))).toBe('bad_response');
  });
});
