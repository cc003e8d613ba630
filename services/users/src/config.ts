/**
 * Settings of the users service, validated once at start-up.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';

export interface UsersConfig extends ServiceSettings {
  /** Absolute URLs handed out (marketplace URLs) start with this; the platform passes the gateway's. */
  WELLSTREAM_PUBLIC_URL: string;
}

export const usersConfigSchema = Joi.object<UsersConfig>({
  ...serviceSettingsSchema,
  WELLSTREAM_PUBLIC_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .default('http://127.0.0.1:8080'),
});

export const loadUsersConfig = (env: NodeJS.ProcessEnv = process.env): UsersConfig => {
  const config = loadConfig(usersConfigSchema, env);
  return { ...config, WELLSTREAM_PUBLIC_URL: config.WELLSTREAM_PUBLIC_URL.replace(/\/+$/, '') };
};
