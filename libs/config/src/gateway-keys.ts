/**
 * WELLSTREAM_GATEWAY_KEYS: the keys the gateway signs its caller assertions with and services
 * verify them with. One key, or two during a rotation ("new,old": the gateway signs with the
 * first, services accept both).
 */
import Joi from 'joi';
import { randomBytes } from 'node:crypto';

export const GATEWAY_KEYS = 'WELLSTREAM_GATEWAY_KEYS';

export const gatewayKeysSchema = () =>
  Joi.string()
    .pattern(/^[^,\s]{32,}(,[^,\s]{32,})?$/)
    .message('must be one key, or two separated by a comma (new,old), each at least 32 characters without spaces or commas');

export const GATEWAY_KEYS_MEANING =
  'the key (at least 32 characters, no commas) the gateway signs forwarded callers with and services verify them by; `new,old` during a rotation (the gateway signs with the first, services accept both)';

export const parseGatewayKeys = (value: string): string[] => value.split(',');

/** For the one-process platform when no key is configured: nothing outside the process needs it. */
export const generateGatewayKey = (): string => randomBytes(32).toString('base64url');
