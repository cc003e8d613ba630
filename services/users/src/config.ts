/**
 * Settings of the users service, validated once at start-up.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';

export interface UsersConfig extends ServiceSettings {
  /** Absolute URLs handed out (marketplace URLs) start with this; the platform passes the gateway's. */
  WELLSTREAM_PUBLIC_URL: string;
  /** Days a deleted user's data is kept before the retention sweep erases it (default seven years). */
  WELLSTREAM_RETENTION_DAYS: number;
  WELLSTREAM_RETENTION_SWEEP_INTERVAL_MS: number;
  /** Lifetime of an export's signed download link. */
  WELLSTREAM_EXPORT_LINK_TTL_S: number;
}

export const usersConfigSchema = Joi.object<UsersConfig>({
  ...serviceSettingsSchema,
  WELLSTREAM_PUBLIC_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:8080')
    .description("the platform's public address, the prefix of every absolute URL a service hands out or registers (marketplace, export links, provider callbacks and webhooks); the one-process platform passes the gateway's"),
  WELLSTREAM_RETENTION_DAYS: Joi.number().integer().min(1).max(36_500).default(2557)
    .description("days a deleted user's data is kept before the retention sweep erases it everywhere (seven years; docs/data-lifecycle.md)"),
  WELLSTREAM_RETENTION_SWEEP_INTERVAL_MS: Joi.number().integer().min(1000).default(3_600_000)
    .description('how often the users service looks for users past retention'),
  WELLSTREAM_EXPORT_LINK_TTL_S: Joi.number().integer().min(1).max(7 * 24 * 3600).default(900)
    .description("lifetime of an export's signed download link (past it: 410)"),
});

export const loadUsersConfig = (env: NodeJS.ProcessEnv = process.env): UsersConfig => {
  const config = loadConfig(usersConfigSchema, env);
  return { ...config, WELLSTREAM_PUBLIC_URL: config.WELLSTREAM_PUBLIC_URL.replace(/\/+$/, '') };
};
