/**
 * Body of POST /v2/marketplace/<token>/timezone: `{"timezone": "Europe/Berlin"}` (JSON or form).
 */
import Joi from 'joi';

export const chooseTimezoneSchema = Joi.object<{ timezone: string }>({
  timezone: Joi.string().max(64).required(),
}).unknown(true);
