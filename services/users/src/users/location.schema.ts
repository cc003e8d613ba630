/**
 * The `location` object of create and PUT bodies (shape only; the values are checked by
 * location-policy so that a bad zone is a 422, not a 400).
 */
import Joi from 'joi';

export const locationSchema = Joi.object({
  timezone: Joi.string().allow(null).max(64),
  // Lower case is accepted and stored upper case ("de" → "DE").
  country_code: Joi.string().allow(null).max(8).uppercase(),
});
