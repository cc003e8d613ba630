/**
 * Settings of the rules service, validated once at start-up.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';

export type RulesConfig = ServiceSettings;

export const rulesConfigSchema = Joi.object<RulesConfig>({
  ...serviceSettingsSchema,
});

export const loadRulesConfig = (env: NodeJS.ProcessEnv = process.env): RulesConfig => loadConfig(rulesConfigSchema, env);
