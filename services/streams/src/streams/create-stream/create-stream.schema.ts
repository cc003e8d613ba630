/**
 * Body of POST /streams. Two passes: wrong JSON types are malformed (400); missing, blank or unknown
 * values are semantic (422, keyed by field). Unknown fields are ignored.
 */
import Joi from 'joi';
import { EVENT_TYPES, EventType, RESOURCE_TYPES, ResourceType } from '@wellstream/catalog';
import { utcDayStart } from '../../delivery/event-filter';
import { nameRule, nameShape } from '../stream-name.schema';

export interface CreateStreamInput {
  name: string;
  start_date?: string | null;
  resource_filter?: ResourceType[] | null;
  event_type_filter?: EventType[] | null;
}

const stringList = Joi.array().items(Joi.string()).allow(null);

export const createStreamShape = Joi.object({
  name: nameShape,
  start_date: Joi.string().allow(null),
  resource_filter: stringList,
  event_type_filter: stringList,
})
  .unknown(true)
  .required()
  .messages({ 'object.base': 'the body must be a JSON object', 'any.required': 'the body must be a JSON object' });

const calendarDate = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .custom((v: string, helpers) => (utcDayStart(v) === undefined ? helpers.error('date.calendar') : v))
  .messages({ 'string.pattern.base': 'start_date must be a date in the form YYYY-MM-DD', 'date.calendar': 'start_date is not a calendar date' });

export const createStreamRules = Joi.object<CreateStreamInput>({
  name: nameRule,
  start_date: calendarDate.allow(null),
  resource_filter: Joi.array()
    .items(Joi.string().valid(...RESOURCE_TYPES))
    .allow(null),
  event_type_filter: Joi.array()
    .items(Joi.string().valid(...EVENT_TYPES))
    .allow(null),
}).options({ stripUnknown: true });
