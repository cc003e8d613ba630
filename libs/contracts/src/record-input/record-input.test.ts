/**
 * The record-input contract's type is the schema's: what a producer may write (RecordInput) is
 * checked by the compiler (the @ts-expect-error lines stop compiling when the type loosens), and a
 * value of that type passes the very validation ingestion runs.
 */
import type { InferInput, Typed } from '../typed-schema';
import * as typed from '../typed-schema';
import type { FullRecordInput, RecordInput, RecordInputOf } from './record-input.schema';
import { validateRecords } from './validate-record-input';

const workout: RecordInputOf<'workout'> = {
  type: 'workout',
  source: { type: 'strava' },
  log_id: 'w1',
  start_time: '2026-01-02T08:00:00Z',
  end_time: '2026-01-02T09:00:00Z',
  category: 'running',
  // origin, tags, user_notes and segments have defaults: a producer may leave them out.
  metrics: [{ type: 'distance', unit: 'm', value: 5000 }],
};

const cgm: FullRecordInput = {
  type: 'cgm',
  source: { type: 'dexcom' },
  log_id: 'c1',
  start_time: '2026-01-02T08:00:00Z',
  end_time: '2026-01-02T09:00:00Z',
  metrics: [{ type: 'blood_glucose', unit: 'mg/dl', granularity: 'PT5M', samples: [{ time: '2026-01-02T08:00:00Z', value: 100 }] }],
};

const deletion: RecordInput = { type: 'sleep', source: { type: 'oura' }, log_id: 's1', deleted: true };

// @ts-expect-error a workout's category is one of the catalog's
const _badCategory: RecordInputOf<'workout'> = { ...workout, category: 'jogging' };
// @ts-expect-error a cgm record's metrics are time series, not values
const _valuesInCgm: RecordInputOf<'cgm'> = { ...cgm, metrics: [{ type: 'blood_glucose', unit: 'mg/dl', value: 100 }] };
// @ts-expect-error start_time is required of a full record
const _noStart: RecordInputOf<'measurement'> = { type: 'measurement', source: { type: 'oura' }, log_id: 'm', end_time: '2026-01-02T09:00:00Z', metrics: [] };

it('types: a field with a default or one the service assigns is optional in the input, required or absent in the output', () => {
  const schema = typed.object({ a: typed.string(), b: typed.withDefault(typed.array(typed.string()), []), c: typed.stripped(), d: typed.optional(typed.number()) });
  const input: InferInput<typeof schema> = { a: 'x' };
  const withAll: InferInput<typeof schema> = { a: 'x', b: ['y'], c: 'anything', d: 1 };
  // A Typed<T> annotation still takes a schema whatever it accepts.
  const asOutput: Typed<{ a: string; b: string[]; d?: number }> = schema;
  expect(schema.joi.validate(input).value).toEqual({ a: 'x', b: [] });
  expect(schema.joi.validate(withAll).value).toEqual({ a: 'x', b: ['y'], d: 1 });
  expect(asOutput.joi).toBe(schema.joi);
});

it('values: records typed as the contract pass the validation ingestion runs', () => {
  const validated = validateRecords({ records: [workout, cgm, deletion] });
  expect(validated.map((v) => v.kind)).toEqual(['full', 'full', 'deletion']);
});

it('times: fractions of a second (what toISOString() writes) are accepted and dropped; other forms are refused', () => {
  const [stored] = validateRecords({
    records: [{ ...workout, start_time: '2026-01-02T08:00:00.987Z', end_time: '2026-01-02T09:00:00.123456789Z' }],
  });
  expect(stored).toMatchObject({ kind: 'full', content: { start_time: '2026-01-02T08:00:00Z', end_time: '2026-01-02T09:00:00Z' } });
  // Within one second, an end written with a smaller fraction is not before its start.
  expect(() => validateRecords({ records: [{ ...workout, start_time: '2026-01-02T08:00:00.900Z', end_time: '2026-01-02T08:00:00.100Z' }] })).not.toThrow();
  for (const bad of ['2026-01-02T08:00:00.Z', '2026-01-02T08:00:00.1234567890Z', '2026-01-02T08:00:00.5+01:00', '2026-01-02T08:00Z', '2026-02-30T08:00:00.5Z']) {
    expect(() => validateRecords({ records: [{ ...workout, start_time: bad, end_time: '2026-03-02T09:00:00Z' }] })).toThrow();
  }
});
