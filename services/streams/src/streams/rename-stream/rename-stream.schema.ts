/**
 * Body of PUT /streams/:id: only `name` counts (other fields are ignored: filters are fixed at
 * creation). A non-object body or a non-string name is malformed (400); a missing or blank name 422.
 */
import Joi from 'joi';
import { nameRule, nameShape } from '../stream-name.schema';

export const renameStreamShape = Joi.object({ name: nameShape })
  .unknown(true)
  .required()
  .messages({ 'object.base': 'the body must be a JSON object', 'any.required': 'the body must be a JSON object' });

export const renameStreamRules = Joi.object<{ name: string }>({ name: nameRule }).options({ stripUnknown: true });
