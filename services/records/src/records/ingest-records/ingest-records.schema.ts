/**
 * The ingestion request and one typed joi schema per record type (the record payload of
 * libs/contracts is what they validate to, plus the fields the service assigns);
 * services/records/README.md documents every field.
 */
import Joi from 'joi';
import { RESOURCE_TYPES, ResourceType } from '@wellstream/catalog';
import { Infer, NUTRITION_CATEGORIES, SLEEP_STAGES, SUMMARY_CATEGORIES, typed, Typed, WORKOUT_CATEGORIES } from '@wellstream/contracts';
import { commonFields, metricsSchema, serviceAssigned, seriesSchema, sourceSchema, utcTime } from './record-fields.schema';

export const MAX_RECORDS_PER_REQUEST = 1000;

const base = <K extends ResourceType>(type: K) => ({ type: typed.oneOf([type]), ...commonFields });

const segment = (resource: ResourceType) => typed.object({ name: name(), start_time: typed.forbidden(), end_time: typed.forbidden(), metrics: typed.withDefault(metricsSchema(resource), []) });
const timedSegment = (resource: ResourceType) =>
  typed.object({
    name: name(),
    start_time: typed.optional(typed.string(utcTime())),
    end_time: typed.optional(typed.string(utcTime())),
    metrics: typed.withDefault(metricsSchema(resource), []),
  });
const name = () => typed.string(Joi.string().max(200));
const segments = <T>(item: Typed<T>, max: number) => typed.withDefault(typed.array(item, (a) => a.max(max)), []);

/** One schema per record type; what each validates to is the record's content (see record-schemas.types.test.ts). */
export const RECORD_SCHEMAS = {
  measurement: typed.object({ ...base('measurement'), metrics: metricsSchema('measurement', 1) }),
  nutrition: typed.object({
    ...base('nutrition'),
    name: typed.optional(name()),
    category: typed.withDefault(typed.oneOf(NUTRITION_CATEGORIES), 'other'),
    metrics: metricsSchema('nutrition'),
    segments: segments(segment('nutrition'), 100),
  }),
  sleep: typed.object({
    ...base('sleep'),
    metrics: metricsSchema('sleep'),
    stages: typed.withDefault(
      typed.array(typed.object({ stage: typed.oneOf(SLEEP_STAGES), start_time: typed.string(utcTime()), end_time: typed.string(utcTime()) }), (a) => a.max(500)),
      [],
    ),
  }),
  summary: typed.object({
    ...base('summary'),
    category: typed.withDefault(typed.oneOf(SUMMARY_CATEGORIES), 'daily'),
    metrics: metricsSchema('summary'),
    segments: segments(timedSegment('summary'), 100),
  }),
  workout: typed.object({
    ...base('workout'),
    category: typed.oneOf(WORKOUT_CATEGORIES),
    name: typed.optional(name()),
    metrics: metricsSchema('workout'),
    segments: segments(timedSegment('workout'), 200),
  }),
  intraday: typed.object({ ...base('intraday'), metrics: typed.array(seriesSchema('intraday'), (a) => a.min(1).max(20)) }),
  cgm: typed.object({ ...base('cgm'), metrics: typed.array(seriesSchema('cgm'), (a) => a.min(1).max(5)) }),
} satisfies Record<ResourceType, Typed<{ type: ResourceType }>>;

/** What one record type's schema validates to. */
export type IngestedOf<K extends ResourceType> = Infer<(typeof RECORD_SCHEMAS)[K]>;
export type Ingested = { [K in ResourceType]: IngestedOf<K> }[ResourceType];

/** A deletion may name the record only: `{type, source, log_id, deleted: true}`. */
export const deletionStubSchema = Joi.object({
  ...Object.fromEntries(Object.entries(serviceAssigned).map(([field, f]) => [field, f.joi])),
  type: Joi.string()
    .valid(...RESOURCE_TYPES)
    .required(),
  source: sourceSchema.joi.required(),
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
