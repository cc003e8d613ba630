/**
 * Settings of the streams service, validated once at start-up.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';

export type StreamsConfig = ServiceSettings;

export const streamsConfigSchema = Joi.object<StreamsConfig>({
  ...serviceSettingsSchema,
});

export const loadStreamsConfig = (env: NodeJS.ProcessEnv = process.env): StreamsConfig => loadConfig(streamsConfigSchema, env);
