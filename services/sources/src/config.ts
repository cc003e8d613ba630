/**
 * Settings of the sources service, validated once at start-up. Provider settings are part of the
 * published interface (docs/configuration.md): WELLSTREAM_SOURCE_<TYPE>_CLIENT_ID/_CLIENT_SECRET (offered
 * only when both are set) and _AUTH_URL/_TOKEN_URL/_API_URL defaulting to production.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';
import type { BudgetWindow } from './providers/budget/provider-budget.port';
import { PROVIDER_DEFAULTS, ProviderType, PROVIDER_TYPES } from './providers/provider-defaults';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const RATE_LIMITS = /^\s*\d+\s*\/\s*\d+\s*[smhd]\s*(,\s*\d+\s*\/\s*\d+\s*[smhd]\s*)*$/;

/** `500/15m,5000/1d` → windows; each count per a duration in s, m, h or d. */
export function parseRateLimits(value: string): BudgetWindow[] {
  return value.split(',').map((part) => {
    const m = /^\s*(\d+)\s*\/\s*(\d+)\s*([smhd])\s*$/.exec(part)!;
    return { limit: Math.max(1, Number(m[1])), windowMs: Math.max(1, Number(m[2])) * UNIT_MS[m[3]] };
  });
}

/** The inverse of parseRateLimits, for the configuration reference: `[{500, 15 min}]` → `500/15m`. */
export function formatRateLimits(windows: BudgetWindow[]): string {
  const unit = (ms: number) => (['d', 'h', 'm', 's'] as const).find((u) => ms % UNIT_MS[u] === 0) ?? 's';
  return windows.map((w) => `${w.limit}/${Math.max(1, Math.round(w.windowMs / UNIT_MS[unit(w.windowMs)]))}${unit(w.windowMs)}`).join(',');
}

export interface ProviderConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  apiUrl: string;
  /** The provider's limits our budget keeps (documented, or WELLSTREAM_SOURCE_<TYPE>_RATE_LIMITS). */
  rateLimits: BudgetWindow[];
  /** The provider's further credentials that are set (its definition's `credentials`), by key. */
  extra?: Record<string, string>;
  /** The provider's limits per user, kept per connection (documented, or WELLSTREAM_SOURCE_<TYPE>_USER_RATE_LIMITS). */
  userRateLimits?: BudgetWindow[];
}

export interface SourcesConfig extends ServiceSettings {
  WELLSTREAM_PUBLIC_URL: string;
  /** `new,old` while rotating; each at least 32 characters. Embedded mode generates one when unset. */
  WELLSTREAM_SOURCE_TOKEN_KEY?: string;
  WELLSTREAM_SOURCE_BACKFILL_DAYS: number;
  /** How often the demo source refreshes today's data for each user with demo connected. */
  WELLSTREAM_DEMO_TICK_MS: number;
  /** Days the demo source fills in when it is connected (today not counted). */
  WELLSTREAM_DEMO_BACKFILL_DAYS: number;
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
  providerKeys[`WELLSTREAM_SOURCE_${T}_CLIENT_ID`] = Joi.string().max(500)
    .description(`our ${type} application's OAuth client id; ${type} is offered in the marketplace only when it and the secret are set`);
  providerKeys[`WELLSTREAM_SOURCE_${T}_CLIENT_SECRET`] = Joi.string().max(500)
    .description(`our ${type} application's OAuth client secret`);
  providerKeys[`WELLSTREAM_SOURCE_${T}_AUTH_URL`] = Joi.string().uri({ scheme: ['http', 'https'] }).default(d.authUrl)
    .description(`${type}'s OAuth authorize address, where a connecting user is sent (tests point it at the simulator)`);
  providerKeys[`WELLSTREAM_SOURCE_${T}_TOKEN_URL`] = Joi.string().uri({ scheme: ['http', 'https'] }).default(d.tokenUrl)
    .description(`${type}'s OAuth token address (tests point it at the simulator)`);
  providerKeys[`WELLSTREAM_SOURCE_${T}_API_URL`] = Joi.string().uri({ scheme: ['http', 'https'] }).default(d.apiUrl)
    .description(`${type}'s data API base address (tests point it at the simulator)`);
  // An application granted a higher quota (Strava, Polar and WHOOP grant them on request) replaces
  // the documented limits, e.g. `1000/15m,10000/1d`.
  providerKeys[`WELLSTREAM_SOURCE_${T}_RATE_LIMITS`] = Joi.string().max(200).pattern(RATE_LIMITS, 'count/duration[,count/duration…] with s, m, h or d')
    .description(`requests our ${type} application may make, all users and replicas together, as \`count/duration,…\` (s, m, h, d); unset: ${type}'s documented limits, \`${formatRateLimits(d.rateLimits)}\`; set it when ${type} granted the application more`);
  for (const c of d.credentials) providerKeys[`WELLSTREAM_SOURCE_${T}_${c.key}`] = Joi.string().max(500).description(c.description);
  providerKeys[`WELLSTREAM_SOURCE_${T}_USER_RATE_LIMITS`] = Joi.string().max(200).pattern(RATE_LIMITS, 'count/duration[,count/duration…] with s, m, h or d')
    .description(`requests our ${type} application may make for any one connected user, as \`count/duration,…\` (s, m, h, d), kept per connection beside the application's limits; unset: ${d.userRateLimits.length ? `${type}'s documented per-user limits, \`${formatRateLimits(d.userRateLimits)}\`` : `none (${type} documents no per-user limit)`}`);
  // A further per-minute cap of our own (unset: the documented windows alone).
  providerKeys[`WELLSTREAM_SOURCE_${T}_REQUESTS_PER_MINUTE`] = Joi.number().integer().min(1).max(1_000_000)
    .description(`a further per-minute cap of our own on ${type} requests, on top of its limits (unset: none)`);
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
    .default('http://127.0.0.1:8080')
    .description("the platform's public address, the prefix of every absolute URL a service hands out or registers (marketplace, export links, provider callbacks and webhooks); the one-process platform passes the gateway's"),
  // Distributed replicas must share the key (a token one replica stored, another decrypts).
  WELLSTREAM_SOURCE_TOKEN_KEY: tokenKey.when('WELLSTREAM_MODE', { is: 'distributed', then: Joi.required() })
    .description('the key provider tokens are encrypted with at rest (at least 32 characters; `new,old` while rotating); every replica needs the same; unset in embedded mode: a key generated once and kept in the data directory'),
  WELLSTREAM_SOURCE_BACKFILL_DAYS: Joi.number().integer().min(0).max(3650).default(30)
    .description("days of history fetched when a source is connected (a provider's shorter documented history bounds it)"),
  WELLSTREAM_DEMO_TICK_MS: Joi.number().integer().min(100).default(60_000)
    .description("how often the demo source refreshes today's data for each user with demo connected"),
  WELLSTREAM_DEMO_BACKFILL_DAYS: Joi.number().integer().min(0).max(30).default(7)
    .description('days the demo source fills in when it is connected (today not counted)'),
  WELLSTREAM_SOURCE_POLL_INTERVAL_S: Joi.number().integer().min(1).max(86_400).default(900)
    .description('how often a provider without notifications (Dexcom) is polled; providers with notifications are polled 4× less often, as a fallback'),
  WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: Joi.number().integer().min(10).max(60_000).default(500)
    .description('how often the sources scheduler looks for due sync work'),
  WELLSTREAM_SOURCE_SYNC_CONCURRENCY: Joi.number().integer().min(1).max(256).default(16)
    .description('sync jobs run at once per sources process (each holds one provider request at a time)'),
  WELLSTREAM_SOURCE_HTTP_TIMEOUT_MS: Joi.number().integer().min(100).max(120_000).default(15_000)
    .description('deadline of one provider request'),
});

export const loadSourcesConfig = (env: NodeJS.ProcessEnv = process.env): SourcesConfig => {
  const config = loadConfig(sourcesConfigSchema, env) as SourcesConfig;
  const providers: SourcesConfig['providers'] = {};
  for (const type of PROVIDER_TYPES) {
    const T = type.toUpperCase();
    const clientId = config[`WELLSTREAM_SOURCE_${T}_CLIENT_ID`] as string | undefined;
    const clientSecret = config[`WELLSTREAM_SOURCE_${T}_CLIENT_SECRET`] as string | undefined;
    if (!clientId || !clientSecret) continue;
    const extra: Record<string, string> = {};
    for (const c of PROVIDER_DEFAULTS[type].credentials) {
      const value = config[`WELLSTREAM_SOURCE_${T}_${c.key}`] as string | undefined;
      if (value) extra[c.key] = value;
    }
    // A provider without a required credential (Suunto's subscription key) is not offered.
    if (PROVIDER_DEFAULTS[type].credentials.some((c) => c.required && !extra[c.key])) continue;
    providers[type] = {
      clientId,
      clientSecret,
      authUrl: config[`WELLSTREAM_SOURCE_${T}_AUTH_URL`] as string,
      tokenUrl: config[`WELLSTREAM_SOURCE_${T}_TOKEN_URL`] as string,
      apiUrl: (config[`WELLSTREAM_SOURCE_${T}_API_URL`] as string).replace(/\/+$/, ''),
      extra,
      rateLimits: rateLimitsOf(type, config[`WELLSTREAM_SOURCE_${T}_RATE_LIMITS`] as string | undefined, config[`WELLSTREAM_SOURCE_${T}_REQUESTS_PER_MINUTE`] as number | undefined),
      userRateLimits: userRateLimitsOf(type, config[`WELLSTREAM_SOURCE_${T}_USER_RATE_LIMITS`] as string | undefined),
    };
  }
  return { ...config, WELLSTREAM_PUBLIC_URL: config.WELLSTREAM_PUBLIC_URL.replace(/\/+$/, ''), providers };
};

function rateLimitsOf(type: ProviderType, custom: string | undefined, perMinute: number | undefined): BudgetWindow[] {
  const windows = custom ? parseRateLimits(custom) : PROVIDER_DEFAULTS[type].rateLimits;
  return perMinute ? [...windows, { limit: perMinute, windowMs: 60_000 }] : windows;
}

function userRateLimitsOf(type: ProviderType, custom: string | undefined): BudgetWindow[] {
  return custom ? parseRateLimits(custom) : PROVIDER_DEFAULTS[type].userRateLimits;
}
