/**
 * Query of the record endpoints: start_date/end_date (YYYY-MM-DD) and `source` (one or a comma list).
 */
import Joi from 'joi';

export const MAX_RANGE_DAYS = 30;

const date = () =>
  Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}$/)
    .custom((v: string, helpers) => (new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v ? v : helpers.error('date.calendar')))
    .messages({ 'string.pattern.base': '{{#label}} must be a date formatted YYYY-MM-DD', 'date.calendar': '{{#label}} is not a valid date' });

export interface ListRecordsQuery {
  start_date?: string;
  end_date?: string;
  source?: string;
  /** 'true': one view built from all sources by the organization's source priority (merge-records.ts). */
  merged?: 'true' | 'false';
}

// Other parameters (token, and whatever a client adds) are ignored, not refused.
export const listRecordsQuerySchema = Joi.object<ListRecordsQuery>({
  start_date: date(),
  end_date: date(),
  source: Joi.string().allow('').max(1000),
  merged: Joi.string().valid('true', 'false').messages({ 'any.only': '{{#label}} must be true or false' }),
}).unknown(true);
