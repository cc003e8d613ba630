/**
 * Settings of the users service, validated once at start-up.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';

export type UsersConfig = ServiceSettings;

export const usersConfigSchema = Joi.object<UsersConfig>({
  ...serviceSettingsSchema,
});

export const loadUsersConfig = (env: NodeJS.ProcessEnv = process.env): UsersConfig => loadConfig(usersConfigSchema, env);
