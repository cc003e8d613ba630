/**
 * Sample records for the validator suite: every catalog metric in every unit and every record type
 * it belongs to, a blood-pressure pair, sleep stages, workout and summary segments, a CGM series in
 * both units, with and without a device, at several UTC offsets.
 */
import { METRICS, type ResourceType } from '@wellstream/catalog';
import type { RecordMetric, RecordPayload, RecordSeries } from '@wellstream/contracts';
import { testRecord } from '@wellstream/testing';

let n = 0;
const uuid = () => {
  const h = (++n).toString(16).padStart(12, '0');
  return `0b6a1d2e-4c3f-5a1b-8c2d-${h}`;
};
const USER = { uid: 'patient-0001', user_id: 'u-1', organization_id: 'org-1' };
const VALUE: Record<string, number> = { percent: 42, bpm: 64, 'mg/dl': 104, 'mmol/l': 5.8, celsius: 36.7, fahrenheit: 98.1, m: 1.78, cm: 178, kg: 71.4, lb: 157.4, mmHg: 120 };

const valueOf = (unit: string) => VALUE[unit] ?? 12.5;

function record(type: ResourceType, fields: Partial<RecordPayload> & { metrics?: unknown[] }, extra: Record<string, unknown> = {}): RecordPayload {
  const id = uuid();
  const base = testRecord(type, {
    id,
    user: USER,
    start_time: '2026-03-01T07:30:00Z',
    end_time: type === 'measurement' ? '2026-03-01T07:30:00Z' : '2026-03-01T08:30:00Z',
    checksum: 'a3f5c0ffee',
    created_at: '2026-03-01T09:00:00.000Z',
    utc_offset: 3600,
    source: { type: 'withings', device: { id: 'dev-17', name: 'Body+', model: 'WBS05', manufacturer: 'Withings', type: 'scale' } },
    ...(fields as object),
  });
  return { ...base, ...(fields.metrics ? { metrics: fields.metrics } : {}), ...extra } as RecordPayload;
}

const series = (type: string, unit: string, count = 3): RecordSeries => ({
  type,
  unit,
  origin: 'device',
  granularity: 'PT5M',
  samples: Array.from({ length: count }, (_, i) => ({ time: new Date(Date.parse('2026-03-01T07:30:00Z') + i * 300_000).toISOString().slice(0, 19) + 'Z', value: valueOf(unit) + i })),
});

/** One record per metric × unit × record type (intraday and cgm as a short series). */
export function everyMetricRecords(): RecordPayload[] {
  const out: RecordPayload[] = [];
  for (const m of METRICS) {
    for (const unit of m.units) {
      for (const type of m.resources) {
        if (type === 'intraday' || type === 'cgm') out.push(record(type, { metrics: [series(m.type, unit)] }));
        else out.push(record(type, { metrics: [{ type: m.type, unit, value: valueOf(unit), origin: 'device' } satisfies RecordMetric] }));
      }
    }
  }
  return out;
}

export const bloodPressureRecord = (interval = false) =>
  record('measurement', {
    utc_offset: -5 * 3600,
    ...(interval ? { end_time: '2026-03-01T07:45:00Z' } : {}),
    metrics: [
      { type: 'blood_pressure_systolic', unit: 'mmHg', value: 121, origin: 'device' },
      { type: 'blood_pressure_diastolic', unit: 'mmHg', value: 79, origin: 'device' },
      { type: 'heart_rate', unit: 'bpm', value: 66, origin: 'device' },
    ],
  });

export const cgmRecord = (unit: 'mg/dl' | 'mmol/l') =>
  record('cgm', { source: { type: 'dexcom', device: { model: 'G7', manufacturer: 'Dexcom', type: 'cgm' } }, metrics: [series('blood_glucose', unit, 12)] });

export const structuredRecords = (): RecordPayload[] => [
  bloodPressureRecord(),
  bloodPressureRecord(true),
  record('measurement', { metrics: [{ type: 'blood_pressure_systolic', unit: 'mmHg', value: 130, origin: 'manual' }], source: { type: 'apple_health' } }),
  record('sleep', { utc_offset: 9 * 3600 + 30 * 60, metrics: [{ type: 'sleep_duration', unit: 's', value: 25200, origin: 'device' }] }, {
    stages: [
      { stage: 'light', start_time: '2026-03-01T07:30:00Z', end_time: '2026-03-01T07:50:00Z' },
      { stage: 'deep', start_time: '2026-03-01T07:50:00Z', end_time: '2026-03-01T08:10:00Z' },
      { stage: 'rem', start_time: '2026-03-01T08:10:00Z', end_time: '2026-03-01T08:25:00Z' },
      { stage: 'awake', start_time: '2026-03-01T08:25:00Z', end_time: '2026-03-01T08:30:00Z' },
    ],
  }),
  record('workout', { source: { type: 'polar' }, metrics: [{ type: 'steps', unit: 'count', value: 5400, origin: 'device' }, { type: 'avg_heart_rate', unit: 'bpm', value: 141, origin: 'device' }] }, {
    category: 'running',
    name: 'Morning run',
    segments: [{ name: 'Lap 1', start_time: '2026-03-01T07:30:00Z', end_time: '2026-03-01T07:45:00Z', metrics: [{ type: 'distance', unit: 'km', value: 2.5, origin: 'device' }] }],
  }),
  record('summary', { utc_offset: -7 * 3600, source: { type: 'oura' }, metrics: [{ type: 'steps', unit: 'count', value: 9000, origin: 'device' }] }, {
    segments: [{ name: 'morning', start_time: '2026-03-01T07:30:00Z', end_time: '2026-03-01T08:00:00Z', metrics: [{ type: 'steps', unit: 'count', value: 1200, origin: 'device' }] }],
  }),
  record('nutrition', { metrics: [{ type: 'energy_consumed', unit: 'kcal', value: 640, origin: 'manual' }] }, {
    category: 'meal',
    name: 'Lunch',
    segments: [{ name: 'Soup', metrics: [{ type: 'sodium', unit: 'mg', value: 800, origin: 'manual' }] }],
  }),
  cgmRecord('mg/dl'),
  cgmRecord('mmol/l'),
];
