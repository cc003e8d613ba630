/**
 * The record as the REST record endpoints answer it and as `data` events carry it: common fields
 * and the fields of each record type. Built with typed-schema, so `RecordPayload` is derived from
 * the schema consumers validate with. It checks shapes, not the catalog's current lists (metric
 * types, units, sources): a consumer must read what a newer producer accepted. Ingestion
 * (services/records) validates the stricter input and proves at compile time that what it
 * accepts is exactly this shape minus the fields the service assigns.
 */
import Joi from 'joi';
import { METRIC_ORIGINS, ResourceType } from '@wellstream/catalog';
import { anyOf, array, Infer, nullable, number, object, oneOf, optional, string, Typed, union, unknownObject } from './typed-schema';

export const WORKOUT_CATEGORIES = ['running', 'cycling', 'walking', 'hiking', 'swimming', 'rowing', 'strength', 'yoga', 'other'] as const;
export const NUTRITION_CATEGORIES = ['food', 'meal', 'other'] as const;
export const SUMMARY_CATEGORIES = ['daily'] as const;
export const SLEEP_STAGES = ['awake', 'light', 'deep', 'rem'] as const;
export const GRANULARITIES = ['PT1M', 'PT5M', 'PT15M', 'PT1H'] as const;
export const OFFSET_ORIGINS = ['source', 'profile', 'user_defined'] as const;
export type OffsetOrigin = (typeof OFFSET_ORIGINS)[number];

/** Any ISO-8601 UTC time, kept as written (ingestion writes seconds; older releases wrote milliseconds). */
const time = () => string(Joi.string().pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/));

export const deviceShape = object({
  id: optional(string()),
  name: optional(string()),
  type: optional(string()),
  model: optional(string()),
  manufacturer: optional(string()),
  diagnostics: optional(array(object({ type: string(), unit: string(Joi.string().allow('')), value: anyOf(number(), string()) }))),
});

export const metricShape = object({
  type: string(),
  unit: string(),
  value: number(),
  origin: oneOf(METRIC_ORIGINS),
  sub_type: optional(string()),
});
export type RecordMetric = Infer<typeof metricShape>;

export const seriesShape = object({
  type: string(),
  unit: string(),
  origin: oneOf(METRIC_ORIGINS),
  granularity: oneOf(GRANULARITIES),
  samples: array(object({ time: time(), value: number() })),
});
export type RecordSeries = Infer<typeof seriesShape>;

const recordUser = object({ uid: string(), user_id: string(), organization_id: string() });

/** Every record type's common fields, in the order the API has always answered with. */
const common = <K extends ResourceType>(type: K) => ({
  id: string(),
  type: oneOf([type]),
  version: string(),
  checksum: string(),
  log_id: string(),
  start_time: time(),
  end_time: time(),
  utc_offset: number(Joi.number().integer()),
  offset_origin: oneOf(OFFSET_ORIGINS),
  user: recordUser,
  source: object({ type: string(), device: optional(deviceShape) }),
  created_at: string(),
  deleted_at: nullable(string()),
  user_notes: array(anyOf(string(), unknownObject())),
  tags: array(string()),
});

const segment = object({ name: string(), metrics: array(metricShape) });
const timedSegment = object({ name: string(), start_time: optional(time()), end_time: optional(time()), metrics: array(metricShape) });

export const RECORD_SHAPES = {
  measurement: object({ ...common('measurement'), metrics: array(metricShape) }),
  nutrition: object({
    ...common('nutrition'),
    name: optional(string()),
    category: oneOf(NUTRITION_CATEGORIES),
    metrics: array(metricShape),
    segments: array(segment),
  }),
  sleep: object({
    ...common('sleep'),
    metrics: array(metricShape),
    stages: array(object({ stage: oneOf(SLEEP_STAGES), start_time: time(), end_time: time() })),
  }),
  summary: object({ ...common('summary'), category: oneOf(SUMMARY_CATEGORIES), metrics: array(metricShape), segments: array(timedSegment) }),
  workout: object({
    ...common('workout'),
    category: oneOf(WORKOUT_CATEGORIES),
    name: optional(string()),
    metrics: array(metricShape),
    segments: array(timedSegment),
  }),
  intraday: object({ ...common('intraday'), metrics: array(seriesShape) }),
  cgm: object({ ...common('cgm'), metrics: array(seriesShape) }),
} satisfies Record<ResourceType, Typed<{ type: ResourceType }>>;

/** One record type's payload. */
export type RecordOf<K extends ResourceType> = Infer<(typeof RECORD_SHAPES)[K]>;
/** What the API answers and what `data` events carry: one of the record types, told apart by `type`. */
export type RecordPayload = { [K in ResourceType]: RecordOf<K> }[ResourceType];

export const recordPayloadSchema: Typed<RecordPayload> = union('type', RECORD_SHAPES);

/** Fields the service assigns; the rest is what a record's source sent (after defaults). */
export type AssignedField = 'id' | 'version' | 'checksum' | 'user' | 'created_at' | 'deleted_at';
/** One record type's content: the payload without the fields the service assigns. */
export type RecordContentOf<K extends ResourceType> = Omit<RecordOf<K>, AssignedField>;
export type RecordContent = { [K in ResourceType]: RecordContentOf<K> }[ResourceType];
