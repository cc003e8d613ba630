/**
 * Typed joi building blocks (typed-schema) of an ingested record: UTC times, the source, metric objects whose type and
 * unit come from the catalog (libs/catalog METRICS), and time series for intraday/cgm records.
 */
import Joi from 'joi';
import { METRICS, METRIC_ORIGINS, ResourceType, SOURCE_TYPES } from '@wellstream/catalog';
import { GRANULARITIES } from '../record-payload';
import * as typed from '../typed-schema';

/** `YYYY-MM-DDThh:mm:ssZ`, the stored and served form, and what ingestion also reads: up to nine digits of a fraction of a second (JavaScript's toISOString() writes three). */
const UTC_TIME_INPUT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

/** The time cut to its whole second, in the stored form. */
const toSecond = (value: string) => (value.length > 20 ? `${value.slice(0, 19)}Z` : value);

/**
 * `YYYY-MM-DDThh:mm:ssZ` that is also a real calendar time (no 2024-02-30). A fraction of a second
 * is accepted and dropped: records are kept to the second, and the interface fixes only the served
 * form, which stays exactly this one.
 */
export const utcTime = () =>
  Joi.string()
    .pattern(UTC_TIME_INPUT)
    .custom((value: string, helpers) => {
      const whole = toSecond(value);
      const d = new Date(whole);
      if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 19) !== whole.slice(0, 19)) return helpers.error('date.utc');
      return whole;
    })
    .messages({
      'string.pattern.base': '{{#label}} must be a UTC time formatted YYYY-MM-DDThh:mm:ssZ (a fraction of a second is accepted and dropped)',
      'date.utc': '{{#label}} is not a valid calendar time',
    });

/** end_time must not be before the record's start_time (a sibling field), both to the second. */
export const endTime = () =>
  utcTime()
    .custom((value: string, helpers) => {
      const start = (helpers.state.ancestors[0] as { start_time?: unknown }).start_time;
      if (typeof start === 'string' && UTC_TIME_INPUT.test(start) && toSecond(value) < toSecond(start)) return helpers.error('time.order');
      return value;
    })
    .messages({ 'time.order': '{{#label}} must not be before start_time' });

export const deviceSchema = typed.object({
  id: typed.optional(typed.string(Joi.string().max(200))),
  name: typed.optional(typed.string(Joi.string().max(200))),
  type: typed.optional(typed.string(Joi.string().max(100))),
  model: typed.optional(typed.string(Joi.string().max(200))),
  manufacturer: typed.optional(typed.string(Joi.string().max(200))),
  diagnostics: typed.optional(
    typed.array(typed.object({ type: typed.string(), unit: typed.string(Joi.string().allow('')), value: typed.anyOf(typed.number(), typed.string()) }), (a) => a.max(50)),
  ),
});

export const sourceSchema = typed.object({
  type: typed.string(
    Joi.string()
      .valid(...SOURCE_TYPES)
      .messages({ 'any.only': '{{#label}} is not a known source (see the source catalog)' }),
  ),
  device: typed.optional(deviceSchema),
});

const metricTypesOf = (resource: ResourceType) => METRICS.filter((m) => m.resources.includes(resource)).map((m) => m.type);

/** The unit must be one of the metric type's units; checked only once the type itself is valid. */
const unitFor = (types: string[]) =>
  Joi.string().when('type', {
    switch: METRICS.filter((m) => types.includes(m.type)).map((m) => ({
      is: m.type,
      then: Joi.valid(...m.units).messages({ 'any.only': `{{#label}} must be one of ${m.units.join(', ')} for ${m.type}` }),
    })),
  });

const metricType = (resource: ResourceType) =>
  Joi.string()
    .valid(...metricTypesOf(resource))
    .messages({ 'any.only': `{{#label}} {{#value}} is not a metric type of ${resource} records (see the metric catalog)` });

const origin = () => typed.withDefault(typed.oneOf(METRIC_ORIGINS), 'unknown');

export const metricSchema = (resource: ResourceType) =>
  typed.object({
    type: typed.string(metricType(resource)),
    unit: typed.string(unitFor(metricTypesOf(resource))),
    value: typed.number(),
    origin: origin(),
    sub_type: typed.optional(typed.string(Joi.string().max(100))),
  });

export const metricsSchema = (resource: ResourceType, min = 0) => typed.array(metricSchema(resource), (a) => a.min(min).max(200));

/** A time series: one metric type sampled over the record's window (intraday, cgm). */
export const seriesSchema = (resource: ResourceType) =>
  typed.object({
    type: typed.string(metricType(resource)),
    unit: typed.string(unitFor(metricTypesOf(resource))),
    origin: origin(),
    granularity: typed.oneOf(GRANULARITIES),
    samples: typed.array(typed.object({ time: typed.string(utcTime()), value: typed.number() }), (a) => a.max(1440)),
  });

/** Fields the service assigns: accepted (a client may post back what it got) and ignored. */
export const serviceAssigned = {
  id: typed.stripped(),
  version: typed.stripped(),
  checksum: typed.stripped(),
  user: typed.stripped(),
  created_at: typed.stripped(),
  deleted_at: typed.stripped(),
  offset_origin: typed.stripped(),
};

export const commonFields = {
  ...serviceAssigned,
  source: sourceSchema,
  log_id: typed.string(Joi.string().min(1).max(200)),
  start_time: typed.string(utcTime()),
  end_time: typed.string(endTime()),
  // Real zones span UTC-12 … UTC+14.
  utc_offset: typed.optional(typed.number(Joi.number().integer().min(-14 * 3600).max(14 * 3600))),
  user_notes: typed.withDefault(typed.array(typed.anyOf(typed.string(Joi.string().max(2000)), typed.unknownObject()), (a) => a.max(50)), []),
  tags: typed.withDefault(typed.array(typed.string(Joi.string().max(100)), (a) => a.max(50)), []),
  deleted: typed.optional(typed.boolean()),
};
