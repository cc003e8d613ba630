/**
 * The settings shared by every deployable (their names are part of the documented interface: README). A service's own
 * config.ts extends this schema with what only it needs.
 */
import Joi from 'joi';
import { GATEWAY_KEYS_MEANING, gatewayKeysSchema } from './gateway-keys';

export type RuntimeMode = 'embedded' | 'distributed';

export interface InfraSettings {
  WELLSTREAM_MODE: RuntimeMode;
  WELLSTREAM_DATA_DIR: string;
  WELLSTREAM_KAFKA_BROKERS?: string;
  WELLSTREAM_KAFKA_CLIENT_ID: string;
  WELLSTREAM_TOPIC_PREFIX: string;
  WELLSTREAM_MONGO_URL?: string;
  WELLSTREAM_DB_PREFIX: string;
  WELLSTREAM_REDIS_URL?: string;
  WELLSTREAM_LOG_LEVEL: 'error' | 'warn' | 'info' | 'debug' | 'silent';
  /** How often a producer's outbox relay retries on its own (every write starts it at once). */
  WELLSTREAM_OUTBOX_DRAIN_MS: number;
  /** Age after which a half-written outbox entry (process died mid-request) is resolved. */
  WELLSTREAM_OUTBOX_STALE_MS: number;
}

export const logLevelSchema = () =>
  Joi.string().valid('error', 'warn', 'info', 'debug', 'silent').default('info').description('`error`, `warn`, `info`, `debug` or `silent`');

const requiredWhenDistributed = (schema: Joi.StringSchema) =>
  schema.when('WELLSTREAM_MODE', { is: 'distributed', then: Joi.required(), otherwise: Joi.optional() });

export const infraSettingsSchema = {
  WELLSTREAM_MODE: Joi.string().valid('embedded', 'distributed').default('embedded')
    .description('`embedded`: one process on its own files; `distributed`: Kafka, MongoDB (FerretDB) and Redis, which makes `WELLSTREAM_KAFKA_BROKERS`, `WELLSTREAM_MONGO_URL` and `WELLSTREAM_REDIS_URL` required'),
  WELLSTREAM_DATA_DIR: Joi.string().default('./data').description('embedded mode: where the embedded databases and the event log are kept'),
  WELLSTREAM_KAFKA_BROKERS: requiredWhenDistributed(
    Joi.string().pattern(/^[\w.-]+:\d+(,[\w.-]+:\d+)*$/).message('must be a comma list of host:port'),
  ).description('distributed mode: the Kafka brokers, a comma list of host:port'),
  WELLSTREAM_KAFKA_CLIENT_ID: Joi.string().default('wellstream').description('the client id this process gives Kafka (seen in broker logs and quotas)'),
  // Lets several test runs (or environments) share one broker/database without seeing each other.
  WELLSTREAM_TOPIC_PREFIX: Joi.string().allow('').pattern(/^[a-zA-Z0-9._-]*$/).default('')
    .description('put before every topic name and consumer-group id (e.g. `staging.`), so environments sharing one broker do not see each other'),
  WELLSTREAM_MONGO_URL: requiredWhenDistributed(Joi.string().uri({ scheme: ['mongodb', 'mongodb+srv'] }))
    .description('distributed mode: the MongoDB API (FerretDB) the stores use, `mongodb://…`'),
  WELLSTREAM_DB_PREFIX: Joi.string().pattern(/^[a-zA-Z0-9_-]+$/).default('wellstream')
    .description('each service uses the database `<prefix>_<service>`, Redis keys start with `<prefix>:` (`rl:` rate limits, `pb:` provider budgets): environments sharing servers do not see each other'),
  WELLSTREAM_REDIS_URL: requiredWhenDistributed(Joi.string().uri({ scheme: ['redis', 'rediss'] }))
    .description("distributed mode: the Redis that holds the gateway's rate limits and the sources service's provider budgets, `redis://…`"),
  WELLSTREAM_LOG_LEVEL: logLevelSchema(),
  WELLSTREAM_OUTBOX_DRAIN_MS: Joi.number().integer().min(50).default(2_000)
    .description("every producer's outbox: how often its relay retries on its own (each write starts it at once)"),
  WELLSTREAM_OUTBOX_STALE_MS: Joi.number().integer().min(0).default(30_000)
    .description('age after which a half-written outbox entry (its process died mid-request) is resolved'),
};

export interface ServiceSettings extends InfraSettings {
  WELLSTREAM_SERVICE_HOST: string;
  WELLSTREAM_SERVICE_PORT: number;
  /** Verifies the gateway's caller assertions (see libs/http gateway-assertion). */
  WELLSTREAM_GATEWAY_KEYS: string;
}

export const serviceSettingsSchema = {
  ...infraSettingsSchema,
  WELLSTREAM_SERVICE_HOST: Joi.string().default('127.0.0.1').description('a service of its own (distributed mode): the address it listens on'),
  WELLSTREAM_SERVICE_PORT: Joi.number().port().default(0).description('a service of its own: the port it listens on (`0`: any free port)'),
  // A service believes only the gateway, so it cannot start without the key to check it by.
  WELLSTREAM_GATEWAY_KEYS: gatewayKeysSchema().required().description(GATEWAY_KEYS_MEANING),
};

export const durationList = () =>
  Joi.string()
    .pattern(/^\d+(,\d+)*$/)
    .message('must be a comma list of milliseconds, e.g. 60000,300000');

export const parseDurationList = (s: string): number[] => s.split(',').map((x) => Number(x));
