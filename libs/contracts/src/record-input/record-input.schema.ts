/**
 * The record-input contract: the ingestion request and one typed joi schema per record type, as
 * the mobile endpoint accepts them and providers write them to `source-records` (the record
 * payload is what they validate to, plus the fields the records service assigns);
 * services/records/README.md documents every field.
 */
import Joi from 'joi';
import { RESOURCE_TYPES, ResourceType } from '@wellstream/catalog';
import { NUTRITION_CATEGORIES, SLEEP_STAGES, SUMMARY_CATEGORIES, WORKOUT_CATEGORIES } from '../record-payload';
import * as typed from '../typed-schema';
import type { Infer, InferInput, Typed } from '../typed-schema';
import { commonFields, metricSchema, metricsSchema, serviceAssigned, seriesSchema, sourceSchema, utcTime } from './record-fields.schema';

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

/** What one record type's schema accepts: what a producer (a provider adapter) may write. */
export type RecordInputOf<K extends ResourceType> = InferInput<(typeof RECORD_SCHEMAS)[K]>;
/** A workout record's category. */
export type WorkoutCategory = (typeof WORKOUT_CATEGORIES)[number];

/** One value metric as a producer writes it (origin may be left out). */
export type MetricInput = InferInput<ReturnType<typeof metricSchema>>;
/** One time series (intraday, cgm) as a producer writes it. */
export type SeriesInput = InferInput<ReturnType<typeof seriesSchema>>;
/** A full record as a producer writes it (defaults may be left out); `deletionStubSchema` takes the rest. */
export type FullRecordInput = { [K in ResourceType]: RecordInputOf<K> }[ResourceType];

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

/** A deletion that names the record only. */
export type DeletionStubInput = {
  type: ResourceType;
  source: { type: string };
  log_id: string;
  deleted: true;
};

/** One record of an ingestion body or a `source-records` message: a full record or a deletion stub. */
export type RecordInput = FullRecordInput | DeletionStubInput;

export const ingestRequestSchema = Joi.object({
  records: Joi.array().items(Joi.object().unknown(true)).min(1).max(MAX_RECORDS_PER_REQUEST).required(),
}).required();

export const recordTypeSchema = Joi.string()
  .valid(...RESOURCE_TYPES)
  .required()
  .messages({ 'any.only': `{{#label}} must be one of ${RESOURCE_TYPES.join(', ')}` });
