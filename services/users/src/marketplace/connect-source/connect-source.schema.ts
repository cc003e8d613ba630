/**
 * Body of a connect request: JSON `{"consent": true}` from the page's script, or the form field
 * `consent=allow` from the consent page when scripts are off.
 */
import Joi from 'joi';

export const connectSourceSchema = Joi.object({
  consent: Joi.alternatives(Joi.boolean(), Joi.string().valid('allow', 'deny')),
}).unknown(true);

export const consentGiven = (body: { consent?: boolean | string }) => body.consent === true || body.consent === 'allow';
