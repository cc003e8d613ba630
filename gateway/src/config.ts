/**
 * Gateway settings (the README lists the public ones).
 */
import Joi from 'joi';
import { gatewayKeysSchema, infraSettingsSchema, InfraSettings, loadConfig } from '@wellstream/config';

export interface GatewayConfig extends InfraSettings {
  WELLSTREAM_HOST: string;
  WELLSTREAM_PORT: number;
  WELLSTREAM_PUBLIC_URL?: string;
  WELLSTREAM_ADMIN_TOKEN?: string;
  WELLSTREAM_DEFAULT_RATE_LIMIT_PER_HOUR: number;
  /** How long a token or organization lookup is reused; revocations evict at once (0: no cache). */
  WELLSTREAM_TOKEN_CACHE_MS: number;
  WELLSTREAM_USERS_URL?: string;
  WELLSTREAM_RECORDS_URL?: string;
  WELLSTREAM_STREAMS_URL?: string;
  WELLSTREAM_NOTIFICATIONS_URL?: string;
  WELLSTREAM_RULES_URL?: string;
  WELLSTREAM_SOURCES_URL?: string;
  /** What the rate limit does while its store (Redis) is unreachable: `open` limits per process, `closed` answers 503. */
  WELLSTREAM_RATE_LIMIT_FAILURE_MODE: 'open' | 'closed';
  /** Signs caller assertions (the first key); the one-process platform generates one when unset. */
  WELLSTREAM_GATEWAY_KEYS?: string;
}

// A gateway process of its own needs every service's address; the one-process platform fills them in.
const serviceUrl = (required: boolean) =>
  required
    ? Joi.string().uri({ scheme: ['http', 'https'] }).when('WELLSTREAM_MODE', { is: 'distributed', then: Joi.required() })
    : Joi.string().uri({ scheme: ['http', 'https'] });

const schemaFor = (servicesFromConfig: boolean) => Joi.object<GatewayConfig>({
  ...infraSettingsSchema,
  WELLSTREAM_HOST: Joi.string().default('127.0.0.1'),
  WELLSTREAM_PORT: Joi.number().port().default(8080),
  WELLSTREAM_PUBLIC_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  WELLSTREAM_ADMIN_TOKEN: Joi.string().min(16).message('WELLSTREAM_ADMIN_TOKEN must be at least 16 characters'),
  WELLSTREAM_DEFAULT_RATE_LIMIT_PER_HOUR: Joi.number().integer().min(1).default(2000),
  WELLSTREAM_TOKEN_CACHE_MS: Joi.number().integer().min(0).max(60_000).default(5000),
  WELLSTREAM_USERS_URL: serviceUrl(servicesFromConfig),
  WELLSTREAM_RECORDS_URL: serviceUrl(servicesFromConfig),
  WELLSTREAM_STREAMS_URL: serviceUrl(servicesFromConfig),
  WELLSTREAM_NOTIFICATIONS_URL: serviceUrl(servicesFromConfig),
  WELLSTREAM_RULES_URL: serviceUrl(servicesFromConfig),
  WELLSTREAM_SOURCES_URL: serviceUrl(servicesFromConfig),
  WELLSTREAM_RATE_LIMIT_FAILURE_MODE: Joi.string().valid('open', 'closed').default('open'),
  WELLSTREAM_GATEWAY_KEYS: servicesFromConfig
    ? gatewayKeysSchema().when('WELLSTREAM_MODE', { is: 'distributed', then: Joi.required() })
    : gatewayKeysSchema(),
});

export const gatewayConfigSchema = schemaFor(true);
const inProcessSchema = schemaFor(false);

/** `servicesInProcess`: the services run in this process and register their own addresses. */
export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env, options: { servicesInProcess?: boolean } = {}): GatewayConfig =>
  loadConfig(options.servicesInProcess ? inProcessSchema : gatewayConfigSchema, env);
