import type { RecordDoc } from '../record';
import { SourceRanking, EMPTY_SETTING, parseSetting, platformDefaultOrder } from '../../priority/source-priority';
import { mergeDays, mergeEvents, mergeSeries, nightOf } from './merge-records';

let n = 0;
function doc(source: string, type: RecordDoc['type'], start: string, end: string, metrics: unknown[], extra: Record<string, unknown> = {}): RecordDoc {
  const id = `r${n++}`;
  return {
    _id: id,
    user_id: 'u1',
    organization_id: 'o1',
    customer_id: 'c1',
    type,
    source_type: source,
    log_id: `${source}-${id}`,
    local_date: start.slice(0, 10),
    start_time: start,
    deleted_at: null,
    checksum: 'x',
    payload: {
      id,
      type,
      version: '1.0',
      checksum: 'x',
      log_id: `${source}-${id}`,
      start_time: start,
      end_time: end,
      utc_offset: 0,
      offset_origin: 'source',
      user: { uid: 'a', user_id: 'u1', organization_id: 'o1' },
      source: { type: source },
      metrics,
      created_at: (extra.created_at as string) ?? '2025-03-01T00:00:00Z',
      deleted_at: null,
      user_notes: [],
      tags: [],
      ...extra,
    } as unknown as RecordDoc['payload'],
  };
}
const steps = (value: number, origin = 'device') => ({ type: 'steps', unit: 'count', value, origin });
const ranking = new SourceRanking(EMPTY_SETTING);

describe('source priority', () => {
  it('defaults to devices, then apps, then phone aggregators, then demo', () => {
    const order = platformDefaultOrder();
    expect(order.indexOf('oura')).toBeLessThan(order.indexOf('apple_health'));
    expect(order.indexOf('withings')).toBeLessThan(order.indexOf('health_connect'));
    expect(order.indexOf('apple_health')).toBeLessThan(order.indexOf('demo'));
    expect(order[order.length - 1]).toBe('demo');
  });

  it('metric lists win over resource lists, which win over the default; unnamed sources follow', () => {
    const r = new SourceRanking(parseSetting({ default: ['demo'], resources: { summary: ['apple_health'] }, metrics: { steps: ['health_connect'] } }));
    expect(r.order('summary', 'steps').slice(0, 3)).toEqual(['health_connect', 'apple_health', 'demo']);
    expect(r.order('summary', 'distance').slice(0, 2)).toEqual(['apple_health', 'demo']);
    expect(r.order('sleep')[0]).toBe('demo');
    expect(new Set(r.order('sleep')).size).toBe(r.order('sleep').length);
  });

  it('refuses unknown sources, resources and metrics (422, keyed by field) and bad shapes (400)', () => {
    const fail = (body: unknown) => {
      try {
        parseSetting(body);
      } catch (e) {
        return e as { kind: string; fieldErrors: Record<string, string[]> };
      }
      throw new Error('accepted');
    };
    const e = fail({ default: ['oura', 'nope', 'oura'], resources: { sleeps: ['oura'] }, metrics: { stepz: ['oura'] } });
    expect(e.kind).toBe('unprocessable');
    expect(Object.keys(e.fieldErrors).sort()).toEqual(['default[1]', 'default[2]', 'metrics.stepz', 'resources.sleeps']);
    expect(fail({ default: 'oura' }).kind).toBe('bad_request');
    expect(fail([]).kind).toBe('bad_request');
  });
});

describe('merging summaries and sleep', () => {
  it('overlapping intervals: priority decides each metric, with provenance; metrics only one source has are combined', () => {
    const oura = doc('oura', 'summary', '2025-03-01T00:00:00Z', '2025-03-01T23:59:59Z', [steps(9000), { type: 'resting_heart_rate', unit: 'bpm', value: 55, origin: 'device' }]);
    const apple = doc('apple_health', 'summary', '2025-03-01T00:00:00Z', '2025-03-01T23:59:59Z', [steps(7000), { type: 'floors_climbed', unit: 'count', value: 4, origin: 'device' }]);
    const [m] = mergeDays('summary', [apple, oura], ranking, '2025-03-01', '2025-03-01');
    expect(m).toMatchObject({ type: 'summary', merged: true, local_date: '2025-03-01', sources: expect.arrayContaining(['oura', 'apple_health']) });
    const byType = Object.fromEntries(m.metrics.map((x) => [x.type, x]));
    expect(byType.steps.value).toBe(9000);
    expect(byType.steps.provenance.map((p) => p.source)).toEqual(['oura']);
    expect(byType.floors_climbed).toMatchObject({ value: 4, provenance: [{ source: 'apple_health', record_id: apple._id }] });
    expect(byType.resting_heart_rate.provenance[0].source).toBe('oura');
  });

  it('non-overlapping intervals add up (additive metrics); a level metric takes the best-ranked', () => {
    const morning = doc('oura', 'summary', '2025-03-02T00:00:00Z', '2025-03-02T12:00:00Z', [steps(3000)]);
    const evening = doc('apple_health', 'summary', '2025-03-02T12:00:00Z', '2025-03-02T23:59:59Z', [steps(4000)]);
    const [m] = mergeDays('summary', [morning, evening], ranking, '2025-03-02', '2025-03-02');
    expect(m.metrics[0]).toMatchObject({ type: 'steps', value: 7000 });
    expect(m.metrics[0].provenance.map((p) => p.source).sort()).toEqual(['apple_health', 'oura']);
    expect(m.start_time).toBe('2025-03-02T00:00:00Z');
    expect(m.end_time).toBe('2025-03-02T23:59:59Z');
  });

  it('a tie (same source, overlapping): device over manual, then the longer interval, then the one processed last', () => {
    const manual = doc('apple_health', 'summary', '2025-03-03T00:00:00Z', '2025-03-03T23:00:00Z', [steps(100, 'manual')]);
    const device = doc('apple_health', 'summary', '2025-03-03T00:00:00Z', '2025-03-03T20:00:00Z', [steps(200)]);
    expect(mergeDays('summary', [manual, device], ranking, '2025-03-03', '2025-03-03')[0].metrics[0].value).toBe(200);
    const short = doc('apple_health', 'summary', '2025-03-04T00:00:00Z', '2025-03-04T10:00:00Z', [steps(1)]);
    const long = doc('apple_health', 'summary', '2025-03-04T00:00:00Z', '2025-03-04T23:00:00Z', [steps(2)]);
    expect(mergeDays('summary', [short, long], ranking, '2025-03-04', '2025-03-04')[0].metrics[0].value).toBe(2);
    const older = doc('apple_health', 'summary', '2025-03-05T00:00:00Z', '2025-03-05T23:00:00Z', [steps(1)], { created_at: '2025-03-05T01:00:00Z' });
    const newer = doc('apple_health', 'summary', '2025-03-05T00:00:00Z', '2025-03-05T23:00:00Z', [steps(2)], { created_at: '2025-03-05T02:00:00Z' });
    expect(mergeDays('summary', [newer, older], ranking, '2025-03-05', '2025-03-05')[0].metrics[0].value).toBe(2);
    expect(mergeDays('summary', [older, newer], ranking, '2025-03-05', '2025-03-05')[0].metrics[0].value).toBe(2);
  });

  it('a source disconnected mid-range: its days come from it, later days from the next source', () => {
    const docs = [];
    for (let d = 1; d <= 6; d++) {
      const day = `2025-04-0${d}`;
      if (d <= 3) docs.push(doc('oura', 'summary', `${day}T00:00:00Z`, `${day}T23:59:59Z`, [steps(1000 * d)]));
      docs.push(doc('apple_health', 'summary', `${day}T00:00:00Z`, `${day}T23:59:59Z`, [steps(10 * d)]));
    }
    const merged = mergeDays('summary', docs, ranking, '2025-04-01', '2025-04-06');
    expect(merged.map((m) => [m.local_date, m.metrics[0].value, m.metrics[0].provenance[0].source])).toEqual([
      ['2025-04-01', 1000, 'oura'],
      ['2025-04-02', 2000, 'oura'],
      ['2025-04-03', 3000, 'oura'],
      ['2025-04-04', 40, 'apple_health'],
      ['2025-04-05', 50, 'apple_health'],
      ['2025-04-06', 60, 'apple_health'],
    ]);
  });

  it('one sleep per night: a sleep after midnight belongs to the evening before; a nap that does not overlap adds up', () => {
    const dur = (v: number) => ({ type: 'sleep_duration', unit: 's', value: v, origin: 'device' });
    const score = (v: number) => ({ type: 'sleep_score', unit: 'percent', value: v, origin: 'device' });
    const oura = doc('oura', 'sleep', '2025-03-01T23:00:00Z', '2025-03-02T07:00:00Z', [dur(25000), score(80)], { stages: [{ stage: 'deep', start_time: '2025-03-01T23:30:00Z', end_time: '2025-03-02T00:30:00Z' }] });
    const phone = doc('apple_health', 'sleep', '2025-03-02T00:15:00Z', '2025-03-02T06:50:00Z', [dur(22000), score(70)]);
    const nap = doc('apple_health', 'sleep', '2025-03-02T09:00:00Z', '2025-03-02T09:30:00Z', [dur(1800)]);
    expect(nightOf(phone)).toBe('2025-03-01');
    const merged = mergeDays('sleep', [oura, phone, nap], ranking, '2025-03-01', '2025-03-01');
    expect(merged).toHaveLength(1);
    const byType = Object.fromEntries(merged[0].metrics.map((x) => [x.type, x]));
    expect(byType.sleep_duration.value).toBe(25000 + 1800);
    expect(byType.sleep_score).toMatchObject({ value: 80, provenance: [{ source: 'oura' }] });
    expect(merged[0].stages).toHaveLength(1);
    // The organization prefers the phone for sleep.
    const phoneFirst = new SourceRanking(parseSetting({ resources: { sleep: ['apple_health'] } }));
    const [p] = mergeDays('sleep', [oura, phone, nap], phoneFirst, '2025-03-01', '2025-03-01');
    expect(p.metrics.find((x) => x.type === 'sleep_duration')!.value).toBe(22000 + 1800);
  });
});

describe('merging workouts, measurements and intraday', () => {
  it('keeps the best-ranked of overlapping workouts of different sources, naming the duplicate; a source\'s own overlaps stay', () => {
    const polar = doc('polar', 'workout', '2025-03-01T10:00:00Z', '2025-03-01T11:00:00Z', []);
    const strava = doc('strava', 'workout', '2025-03-01T10:01:00Z', '2025-03-01T11:00:00Z', []);
    const later = doc('strava', 'workout', '2025-03-01T18:00:00Z', '2025-03-01T19:00:00Z', []);
    const merged = mergeEvents('workout', [strava, polar, later], ranking);
    expect(merged.map((r) => r.id)).toEqual([polar._id, later._id]);
    expect(merged[0].duplicates).toEqual([expect.objectContaining({ source: 'strava', record_id: strava._id })]);
  });

  it('measurements are duplicates only when they share a metric type and lie within 5 minutes', () => {
    const w = (s: string, t: string, type = 'body_weight') => doc(s, 'measurement', t, t, [{ type, unit: 'kg', value: 70, origin: 'device' }]);
    const scale = w('withings', '2025-03-01T07:00:00Z');
    const copy = w('apple_health', '2025-03-01T07:02:00Z');
    const other = w('apple_health', '2025-03-01T07:01:00Z', 'body_fat');
    const apart = w('apple_health', '2025-03-01T08:00:00Z');
    const ids = mergeEvents('measurement', [scale, copy, other, apart], ranking).map((r) => r.id);
    expect(ids).toEqual([scale._id, other._id, apart._id]);
  });

  it('intraday: samples a better-ranked source covers are left out; the rest of a series stays', () => {
    const series = (times: string[], value: number) => ({ type: 'steps', unit: 'count', origin: 'device', granularity: 'PT5M', samples: times.map((time) => ({ time, value })) });
    const oura = doc('oura', 'intraday', '2025-03-01T10:00:00Z', '2025-03-01T10:10:00Z', [series(['2025-03-01T10:00:00Z', '2025-03-01T10:05:00Z'], 1)]);
    const phone = doc('apple_health', 'intraday', '2025-03-01T10:00:00Z', '2025-03-01T10:20:00Z', [
      series(['2025-03-01T10:00:00Z', '2025-03-01T10:05:00Z', '2025-03-01T10:10:00Z', '2025-03-01T10:15:00Z'], 2),
    ]);
    const merged = mergeSeries([phone, oura], ranking);
    const byId = Object.fromEntries(merged.map((r) => [r.id, r]));
    expect((byId[oura._id].metrics as any)[0].samples).toHaveLength(2);
    expect((byId[phone._id].metrics as any)[0].samples.map((s: any) => s.time)).toEqual(['2025-03-01T10:10:00Z', '2025-03-01T10:15:00Z']);
    expect(byId[oura._id].duplicates).toEqual([expect.objectContaining({ source: 'apple_health', metric: 'steps' })]);
  });
});
