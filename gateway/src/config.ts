/**
 * Gateway settings (the README lists the public ones).
 */
import Joi from 'joi';
import { GATEWAY_KEYS_MEANING, gatewayKeysSchema, infraSettingsSchema, InfraSettings, loadConfig } from '@wellstream/config';

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
const serviceUrl = (required: boolean, service: string) =>
  (required
    ? Joi.string().uri({ scheme: ['http', 'https'] }).when('WELLSTREAM_MODE', { is: 'distributed', then: Joi.required() })
    : Joi.string().uri({ scheme: ['http', 'https'] })
  ).description(`a gateway of its own (distributed mode): the ${service} service's base URL (the one-process platform fills it in)`);

const schemaFor = (servicesFromConfig: boolean) => Joi.object<GatewayConfig>({
  ...infraSettingsSchema,
  WELLSTREAM_HOST: Joi.string().default('127.0.0.1').description('the address the gateway listens on'),
  WELLSTREAM_PORT: Joi.number().port().default(8080).description('the port the gateway listens on'),
  WELLSTREAM_PUBLIC_URL: Joi.string().uri({ scheme: ['http', 'https'] })
    .description('prefix of the absolute URLs handed out (marketplace, export links); unset: `http://127.0.0.1:<port>` of the gateway'),
  WELLSTREAM_ADMIN_TOKEN: Joi.string().min(16).message('WELLSTREAM_ADMIN_TOKEN must be at least 16 characters')
    .description('the operator key (at least 16 characters); unset: one is generated and printed at start'),
  WELLSTREAM_DEFAULT_RATE_LIMIT_PER_HOUR: Joi.number().integer().min(1).default(2000)
    .description('requests per hour of a token issued without `rate_limit_per_hour`'),
  WELLSTREAM_TOKEN_CACHE_MS: Joi.number().integer().min(0).max(60_000).default(5000)
    .description('how long the gateway reuses a token or organization lookup (revocations still act at once; `0`: no cache)'),
  WELLSTREAM_USERS_URL: serviceUrl(servicesFromConfig, 'users'),
  WELLSTREAM_RECORDS_URL: serviceUrl(servicesFromConfig, 'records'),
  WELLSTREAM_STREAMS_URL: serviceUrl(servicesFromConfig, 'streams'),
  WELLSTREAM_NOTIFICATIONS_URL: serviceUrl(servicesFromConfig, 'notifications'),
  WELLSTREAM_RULES_URL: serviceUrl(servicesFromConfig, 'rules'),
  WELLSTREAM_SOURCES_URL: serviceUrl(servicesFromConfig, 'sources'),
  WELLSTREAM_RATE_LIMIT_FAILURE_MODE: Joi.string().valid('open', 'closed').default('open')
    .description("while Redis is unreachable: `open` counts each token's limit in the gateway process (approximate: per replica), `closed` answers 503 `{\"message\"}` + `Retry-After`"),
  WELLSTREAM_GATEWAY_KEYS: (servicesFromConfig
    ? gatewayKeysSchema().when('WELLSTREAM_MODE', { is: 'distributed', then: Joi.required() })
    : gatewayKeysSchema()
  ).description(`${GATEWAY_KEYS_MEANING}; unset in embedded mode: one generated for the process`),
});

export const gatewayConfigSchema = schemaFor(true);
const inProcessSchema = schemaFor(false);

/** `servicesInProcess`: the services run in this process and register their own addresses. */
export const loadGatewayConfig = (env: NodeJS.ProcessEnv = process.env, options: { servicesInProcess?: boolean } = {}): GatewayConfig =>
  loadConfig(options.servicesInProcess ? inProcessSchema : gatewayConfigSchema, env);
