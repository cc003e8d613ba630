/**
 * Query of the operator's ingestion counts: `start_date` and `end_date` (YYYY-MM-DD, UTC days,
 * both included). Defaults: `end_date` today, `start_date` 29 days before it (30 days); at most
 * 92 days in one read. Other parameters (the `token`) are ignored.
 */
import Joi from 'joi';

export const MAX_INGESTION_DAYS = 92;
export const DEFAULT_INGESTION_DAYS = 30;

const date = () =>
  Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}$/)
    .custom((v: string, helpers) => (new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v ? v : helpers.error('date.calendar')))
    .messages({ 'string.pattern.base': '{{#label}} must be a date formatted YYYY-MM-DD', 'date.calendar': '{{#label}} is not a valid date' });

export interface IngestionQuery {
  start_date?: string;
  end_date?: string;
}

export const ingestionQuerySchema = Joi.object<IngestionQuery>({ start_date: date(), end_date: date() }).unknown(true);
