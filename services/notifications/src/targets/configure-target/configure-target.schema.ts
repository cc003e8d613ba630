/**
 * The body of PUT /organizations/:org_id/notification_target.
 */
import Joi from 'joi';
import { RESOURCE_TYPES, ResourceType } from '@wellstream/catalog';

export interface ConfigureTargetBody {
  url: string;
  secret?: string;
  resource_filter?: ResourceType[];
}

export const configureTargetSchema = Joi.object<ConfigureTargetBody>({
  url: Joi.string()
    .trim()
    .max(2048)
    .uri({ scheme: ['http', 'https'] })
    .required()
    .messages({ 'string.uriCustomScheme': 'url must be an http or https URL', 'string.uri': 'url must be an http or https URL' }),
  secret: Joi.string().min(1).max(512),
  resource_filter: Joi.array()
    .items(Joi.string().valid(...RESOURCE_TYPES))
    .unique()
    .max(RESOURCE_TYPES.length),
})
  .required()
  .messages({ 'object.base': 'the body must be a JSON object', 'any.required': '{#label} is required' });
