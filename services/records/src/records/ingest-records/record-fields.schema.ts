/**
 * joi building blocks of an ingested record: UTC times, the source, metric objects whose type and
 * unit come from the catalog (libs/catalog METRICS), and time series for intraday/cgm records.
 */
import Joi from 'joi';
import { METRICS, METRIC_ORIGINS, ResourceType, SOURCE_TYPES } from '@wellstream/catalog';

const UTC_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** `YYYY-MM-DDThh:mm:ssZ` that is also a real calendar time (no 2024-02-30). */
export const utcTime = () =>
  Joi.string()
    .pattern(UTC_TIME)
    .custom((value: string, helpers) => {
      const d = new Date(value);
      if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 19) !== value.slice(0, 19)) return helpers.error('date.utc');
      return value;
    })
    .messages({
      'string.pattern.base': '{{#label}} must be a UTC time formatted YYYY-MM-DDThh:mm:ssZ',
      'date.utc': '{{#label}} is not a valid calendar time',
    });

/** end_time must not be before the record's start_time (a sibling field). */
export const endTime = () =>
  utcTime()
    .custom((value: string, helpers) => {
      const start = (helpers.state.ancestors[0] as { start_time?: unknown }).start_time;
      if (typeof start === 'string' && UTC_TIME.test(start) && value < start) return helpers.error('time.order');
      return value;
    })
    .messages({ 'time.order': '{{#label}} must not be before start_time' });

export const deviceSchema = Joi.object({
  id: Joi.string().max(200),
  name: Joi.string().max(200),
  type: Joi.string().max(100),
  model: Joi.string().max(200),
  manufacturer: Joi.string().max(200),
  diagnostics: Joi.array()
    .max(50)
    .items(Joi.object({ type: Joi.string().required(), unit: Joi.string().allow('').required(), value: Joi.alternatives(Joi.number(), Joi.string()).required() })),
});

export const sourceSchema = Joi.object({
  type: Joi.string()
    .valid(...SOURCE_TYPES)
    .required()
    .messages({ 'any.only': '{{#label}} is not a known source (see the source catalog)' }),
  device: deviceSchema,
}).required();

const metricTypesOf = (resource: ResourceType) => METRICS.filter((m) => m.resources.includes(resource)).map((m) => m.type);

/** The unit must be one of the metric type's units; checked only once the type itself is valid. */
const unitFor = (types: string[]) =>
  Joi.string()
    .required()
    .when('type', {
      switch: METRICS.filter((m) => types.includes(m.type)).map((m) => ({
        is: m.type,
        then: Joi.valid(...m.units).messages({ 'any.only': `{{#label}} must be one of ${m.units.join(', ')} for ${m.type}` }),
      })),
    });

const metricType = (resource: ResourceType) =>
  Joi.string()
    .valid(...metricTypesOf(resource))
    .required()
    .messages({ 'any.only': `{{#label}} {{#value}} is not a metric type of ${resource} records (see the metric catalog)` });

export const metricSchema = (resource: ResourceType) =>
  Joi.object({
    type: metricType(resource),
    unit: unitFor(metricTypesOf(resource)),
    value: Joi.number().required(),
    origin: Joi.string()
      .valid(...METRIC_ORIGINS)
      .default('unknown'),
    sub_type: Joi.string().max(100),
  });

export const metricsSchema = (resource: ResourceType, min = 0) => Joi.array().items(metricSchema(resource)).min(min).max(200);

export const GRANULARITIES = ['PT1M', 'PT5M', 'PT15M', 'PT1H'] as const;

/** A time series: one metric type sampled over the record's window (intraday, cgm). */
export const seriesSchema = (resource: ResourceType) =>
  Joi.object({
    type: metricType(resource),
    unit: unitFor(metricTypesOf(resource)),
    origin: Joi.string()
      .valid(...METRIC_ORIGINS)
      .default('unknown'),
    granularity: Joi.string()
      .valid(...GRANULARITIES)
      .required(),
    samples: Joi.array()
      .items(Joi.object({ time: utcTime().required(), value: Joi.number().required() }))
      .max(1440)
      .required(),
  });

/** Fields the service assigns: accepted (a client may post back what it got) and ignored. */
export const serviceAssigned = {
  id: Joi.any().strip(),
  version: Joi.any().strip(),
  checksum: Joi.any().strip(),
  user: Joi.any().strip(),
  created_at: Joi.any().strip(),
  deleted_at: Joi.any().strip(),
  offset_origin: Joi.any().strip(),
};

export const commonFields = {
  ...serviceAssigned,
  source: sourceSchema,
  log_id: Joi.string().min(1).max(200).required(),
  start_time: utcTime().required(),
  end_time: endTime().required(),
  // Real zones span UTC-12 … UTC+14.
  utc_offset: Joi.number().integer().min(-14 * 3600).max(14 * 3600),
  user_notes: Joi.array().max(50).items(Joi.alternatives(Joi.string().max(2000), Joi.object().unknown(true))).default([]),
  tags: Joi.array().max(50).items(Joi.string().max(100)).default([]),
  deleted: Joi.boolean(),
};
