/**
 * Settings of the records service, validated once at start-up.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';

export type RecordsConfig = ServiceSettings;

export const recordsConfigSchema = Joi.object<RecordsConfig>({
  ...serviceSettingsSchema,
});

export const loadRecordsConfig = (env: NodeJS.ProcessEnv = process.env): RecordsConfig => loadConfig(recordsConfigSchema, env);
