/**
 * PUT /organizations/:org_id/users/:uid body: only the location can change. Keys left out of
 * `location` keep their value; `null` clears one.
 */
import Joi from 'joi';
import { locationSchema } from '../location.schema';

export interface UpdateUserBody {
  location: { timezone?: string | null; country_code?: string | null };
}

export const updateUserSchema = Joi.object<UpdateUserBody>({
  location: locationSchema.required(),
}).required();
