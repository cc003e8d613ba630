/**
 * Query of GET /organizations/:org_id/notifications. Times are UTC `YYYY-MM-DDTHH:MM:SSZ` (the
 * documented format, nothing looser); `status` is `success` or `failure` (any case).
 */
import Joi from 'joi';

export interface ListBatchesQuery {
  start_time?: string;
  end_time?: string;
  status?: 'success' | 'failure';
  offset: number;
  limit: number;
}

const utcSecond = Joi.string()
  .pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
  .custom((value: string, helpers) => {
    const ms = Date.parse(value);
    // Date.parse accepts 2024-02-30; a round trip does not.
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) + 'Z' !== value) return helpers.error('date.invalid');
    return value;
  })
  .messages({
    'string.pattern.base': '{#label} must be a UTC time in the format YYYY-MM-DDTHH:MM:SSZ',
    'date.invalid': '{#label} is not a valid date and time',
  });

export const listBatchesSchema = Joi.object<ListBatchesQuery>({
  start_time: utcSecond,
  end_time: utcSecond,
  status: Joi.string()
    .lowercase()
    .valid('success', 'failure')
    .messages({ 'any.only': 'status must be success or failure' }),
  offset: Joi.number().integer().min(0).max(1_000_000).default(0),
  limit: Joi.number().integer().min(1).max(100).default(25),
})
  .unknown(true);
