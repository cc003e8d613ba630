/**
 * Ingestion's record schemas take joi's fast path (libs/contracts fast-validation.ts) for the
 * records clients send, and it never accepts what joi refuses: checked on a sample of every record
 * type and thousands of seeded mutations of each, and on the refusals that need the custom time
 * rules and the unit-by-metric-type switch.
 */
import Joi from 'joi';
import { RESOURCE_TYPES } from '@wellstream/catalog';
import { fastValidate } from '@wellstream/contracts';
import { fastPathAgrees, mutationsAgree } from '@wellstream/testing';
import { sampleRecord } from '../../../test/records-fixtures';
import { RECORD_SCHEMAS } from '@wellstream/contracts';

/** The options ingestion validates records with (validate-records.ts). */
const STRICT: Joi.ValidationOptions = { abortEarly: false, convert: false };
const schemaOf = (type: string): Joi.Schema => RECORD_SCHEMAS[type as keyof typeof RECORD_SCHEMAS].joi;

describe.each(RESOURCE_TYPES)('%s records', (type) => {
  const record = sampleRecord(type, '2026-01-02');

  it('take the fast path, with joi’s value (defaults filled in, service-assigned fields dropped)', () => {
    expect(fastPathAgrees(schemaOf(type), record, STRICT)).toBe(true);
    expect(fastPathAgrees(schemaOf(type), { ...record, id: 'posted-back', checksum: 'c', created_at: 'x' }, STRICT)).toBe(true);
  });

  it('1,000 mutations: whatever the fast path accepts, joi accepts with an equal value', () => {
    const answered = mutationsAgree(schemaOf(type), record, [STRICT], 1000, 7);
    // Harmless mutations (an optional field dropped, a valid time or unit swapped in) still take it.
    expect(answered).toBeGreaterThan(0);
  });
});

it('leaves to joi the refusals of the custom time rules and the unit switch', () => {
  const measurement = sampleRecord('measurement', '2026-01-02');
  const schema = schemaOf('measurement');
  const refusedByJoi = (value: Record<string, unknown>) => {
    expect(schema.validate(value, STRICT).error).toBeDefined();
    return fastValidate(schema, value, STRICT);
  };
  expect(refusedByJoi({ ...measurement, end_time: '2026-01-02T09:59:59Z' })).toBeUndefined(); // before start_time
  expect(refusedByJoi({ ...measurement, start_time: '2026-02-30T10:00:00Z' })).toBeUndefined(); // no such day
  expect(refusedByJoi({ ...measurement, metrics: [{ type: 'body_weight', unit: 'percent', value: 70 }] })).toBeUndefined();
  expect(refusedByJoi({ ...measurement, utc_offset: 15 * 3600 })).toBeUndefined();
  expect(refusedByJoi({ ...measurement, log_id: 'x'.repeat(201) })).toBeUndefined();
  // And their valid neighbours take it.
  expect(fastPathAgrees(schema, { ...measurement, end_time: measurement.start_time }, STRICT)).toBe(true);
  expect(fastPathAgrees(schema, { ...measurement, metrics: [{ type: 'body_weight', unit: 'lb', value: 160 }] }, STRICT)).toBe(true);
  expect(fastPathAgrees(schema, { ...measurement, utc_offset: -14 * 3600 }, STRICT)).toBe(true);
});
