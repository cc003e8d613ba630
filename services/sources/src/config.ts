/**
 * Settings of the sources service, validated once at start-up. Provider settings follow the
 * contract (DESIGN.md §2, Sources): WELLSTREAM_SOURCE_<TYPE>_CLIENT_ID/_CLIENT_SECRET (offered
 * only when both are set) and _AUTH_URL/_TOKEN_URL/_API_URL defaulting to production.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';
import { PROVIDER_DEFAULTS, ProviderType, PROVIDER_TYPES } from './providers/provider-defaults';

export interface ProviderConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  apiUrl: string;
  /** Our budget of calls per minute to this provider (per process); defaults below its documented limit. */
  requestsPerMinute: number;
}

export interface SourcesConfig extends ServiceSettings {
  WELLSTREAM_PUBLIC_URL: string;
  /** `new,old` while rotating; each at least 32 characters. Embedded mode generates one when unset. */
  WELLSTREAM_SOURCE_TOKEN_KEY?: string;
  WELLSTREAM_SOURCE_BACKFILL_DAYS: number;
  WELLSTREAM_SOURCE_POLL_INTERVAL_S: number;
  /** How often the scheduler looks for due sync work. */
  WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: number;
  /** Sync jobs run at once per process (each holds one provider request at a time). */
  WELLSTREAM_SOURCE_SYNC_CONCURRENCY: number;
  /** Deadline of one provider request. */
  WELLSTREAM_SOURCE_HTTP_TIMEOUT_MS: number;
  /** The configured providers (credentials set), derived from the WELLSTREAM_SOURCE_<TYPE>_* variables. */
  providers: Partial<Record<ProviderType, ProviderConfig>>;
  [key: string]: unknown;
}

const providerKeys: Record<string, Joi.Schema> = {};
for (const type of PROVIDER_TYPES) {
  const T = type.toUpperCase();
  const d = PROVIDER_DEFAULTS[type];
  providerKeys[`WELLSTREAM_SOURCE_${T}_CLIENT_ID`] = Joi.string().max(500);
  providerKeys[`WELLSTREAM_SOURCE_${T}_CLIENT_SECRET`] = Joi.string().max(500);
  providerKeys[`WELLSTREAM_SOURCE_${T}_AUTH_URL`] = Joi.string().uri({ scheme: ['http', 'https'] }).default(d.authUrl);
  providerKeys[`WELLSTREAM_SOURCE_${T}_TOKEN_URL`] = Joi.string().uri({ scheme: ['http', 'https'] }).default(d.tokenUrl);
  providerKeys[`WELLSTREAM_SOURCE_${T}_API_URL`] = Joi.string().uri({ scheme: ['http', 'https'] }).default(d.apiUrl);
  // An application granted a higher quota (Strava and Polar grant them on request) raises this.
  providerKeys[`WELLSTREAM_SOURCE_${T}_REQUESTS_PER_MINUTE`] = Joi.number().integer().min(1).max(1_000_000).default(d.appRequestsPerMinute);
}

const tokenKey = Joi.string()
  .custom((value: string, helpers) => {
    if (value.split(',').some((k) => k.trim().length < 32)) return helpers.error('key.short');
    return value;
  })
  .messages({ 'key.short': '{{#label}} must be one key, or "new,old", each at least 32 characters' });

export const sourcesConfigSchema = Joi.object<SourcesConfig>({
  ...serviceSettingsSchema,
  ...providerKeys,
  WELLSTREAM_PUBLIC_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:8080'),
  // Distributed replicas must share the key (a token one replica stored, another decrypts).
  WELLSTREAM_SOURCE_TOKEN_KEY: tokenKey.when('WELLSTREAM_MODE', { is: 'distributed', then: Joi.required() }),
  WELLSTREAM_SOURCE_BACKFILL_DAYS: Joi.number().integer().min(0).max(3650).default(30),
  WELLSTREAM_SOURCE_POLL_INTERVAL_S: Joi.number().integer().min(1).max(86_400).default(900),
  WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: Joi.number().integer().min(10).max(60_000).default(500),
  WELLSTREAM_SOURCE_SYNC_CONCURRENCY: Joi.number().integer().min(1).max(256).default(16),
  WELLSTREAM_SOURCE_HTTP_TIMEOUT_MS: Joi.number().integer().min(100).max(120_000).default(15_000),
});

export const loadSourcesConfig = (env: NodeJS.ProcessEnv = process.env): SourcesConfig => {
  const config = loadConfig(sourcesConfigSchema, env) as SourcesConfig;
  const providers: SourcesConfig['providers'] = {};
  for (const type of PROVIDER_TYPES) {
    const T = type.toUpperCase();
    const clientId = config[`WELLSTREAM_SOURCE_${T}_CLIENT_ID`] as string | undefined;
    const clientSecret = config[`WELLSTREAM_SOURCE_${T}_CLIENT_SECRET`] as string | undefined;
    if (!clientId || !clientSecret) continue;
    providers[type] = {
      clientId,
      clientSecret,
      authUrl: config[`WELLSTREAM_SOURCE_${T}_AUTH_URL`] as string,
      tokenUrl: config[`WELLSTREAM_SOURCE_${T}_TOKEN_URL`] as string,
      apiUrl: (config[`WELLSTREAM_SOURCE_${T}_API_URL`] as string).replace(/\/+$/, ''),
      requestsPerMinute: config[`WELLSTREAM_SOURCE_${T}_REQUESTS_PER_MINUTE`] as number,
    };
  }
  return { ...config, WELLSTREAM_PUBLIC_URL: config.WELLSTREAM_PUBLIC_URL.replace(/\/+$/, ''), providers };
};
