/**
 * The ingestion request and one joi schema per record type. Workout and intraday shapes are ours
 * (the spec leaves them open); services/records/README.md documents every field.
 */
import Joi from 'joi';
import { RESOURCE_TYPES, ResourceType } from '@wellstream/catalog';
import { commonFields, metricsSchema, serviceAssigned, seriesSchema, sourceSchema, utcTime } from './record-fields.schema';

export const MAX_RECORDS_PER_REQUEST = 1000;

export const WORKOUT_CATEGORIES = ['running', 'cycling', 'walking', 'hiking', 'swimming', 'rowing', 'strength', 'yoga', 'other'] as const;
export const SLEEP_STAGES = ['awake', 'light', 'deep', 'rem'] as const;

const base = (type: ResourceType, extra: Record<string, Joi.Schema>) =>
  Joi.object({ type: Joi.string().valid(type).required(), ...commonFields, ...extra });

const segment = (resource: ResourceType, timed: boolean) =>
  Joi.object({
    name: Joi.string().max(200).required(),
    start_time: timed ? utcTime() : Joi.forbidden(),
    end_time: timed ? utcTime() : Joi.forbidden(),
    metrics: metricsSchema(resource).default([]),
  });

export const RECORD_SCHEMAS: Record<ResourceType, Joi.ObjectSchema> = {
  measurement: base('measurement', { metrics: metricsSchema('measurement', 1).required() }),
  nutrition: base('nutrition', {
    name: Joi.string().max(200),
    category: Joi.string().valid('food', 'meal', 'other').default('other'),
    metrics: metricsSchema('nutrition').required(),
    segments: Joi.array().max(100).items(segment('nutrition', false)).default([]),
  }),
  sleep: base('sleep', {
    metrics: metricsSchema('sleep').required(),
    stages: Joi.array()
      .max(500)
      .items(Joi.object({ stage: Joi.string().valid(...SLEEP_STAGES).required(), start_time: utcTime().required(), end_time: utcTime().required() }))
      .default([]),
  }),
  summary: base('summary', {
    category: Joi.string().valid('daily').default('daily'),
    metrics: metricsSchema('summary').required(),
    segments: Joi.array().max(100).items(segment('summary', true)).default([]),
  }),
  workout: base('workout', {
    category: Joi.string()
      .valid(...WORKOUT_CATEGORIES)
      .required(),
    name: Joi.string().max(200),
    metrics: metricsSchema('workout').required(),
    segments: Joi.array().max(200).items(segment('workout', true)).default([]),
  }),
  intraday: base('intraday', { metrics: Joi.array().items(seriesSchema('intraday')).min(1).max(20).required() }),
  cgm: base('cgm', { metrics: Joi.array().items(seriesSchema('cgm')).min(1).max(5).required() }),
};

/** A deletion may name the record only: `{type, source, log_id, deleted: true}`. */
export const deletionStubSchema = Joi.object({
  ...serviceAssigned,
  type: Joi.string()
    .valid(...RESOURCE_TYPES)
    .required(),
  source: sourceSchema,
  log_id: Joi.string().min(1).max(200).required(),
  deleted: Joi.valid(true).required(),
}).unknown(false);

export const ingestRequestSchema = Joi.object({
  records: Joi.array().items(Joi.object().unknown(true)).min(1).max(MAX_RECORDS_PER_REQUEST).required(),
}).required();

export const recordTypeSchema = Joi.string()
  .valid(...RESOURCE_TYPES)
  .required()
  .messages({ 'any.only': `{{#label}} must be one of ${RESOURCE_TYPES.join(', ')}` });
