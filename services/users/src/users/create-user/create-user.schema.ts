/**
 * POST /organizations/:org_id/users body. Wrong types are 400; a uid or location that is
 * well-formed but not allowed is 422 (see uid-policy, location-policy).
 */
import Joi from 'joi';
import { locationSchema } from '../location.schema';

export interface CreateUserBody {
  uid: string;
  location?: { timezone?: string | null; country_code?: string | null };
}

export const createUserSchema = Joi.object<CreateUserBody>({
  uid: Joi.string().allow('').required(),
  location: locationSchema,
}).required();
