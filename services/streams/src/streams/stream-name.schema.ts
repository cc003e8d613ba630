/**
 * The `name` rules shared by create and rename: a string (else 400), not blank and at most
 * MAX_STREAM_NAME_LENGTH characters after trimming (else 422).
 */
import Joi from 'joi';
import { MAX_STREAM_NAME_LENGTH } from './stream';

export const nameShape = Joi.string().allow('');
export const nameRule = Joi.string().trim().min(1).max(MAX_STREAM_NAME_LENGTH).required().messages({
  'string.empty': 'name must not be empty',
  'any.required': 'name is required',
});
