/**
 * Settings of the rules service, validated once at start-up.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';

export interface RulesConfig extends ServiceSettings {
  /** The rules feature for organizations whose operator setting is null (documented in the README). */
  WELLSTREAM_RULES_ENABLED: boolean;
  /** How often every rule is judged again, so missing data is noticed without new data. */
  WELLSTREAM_RULES_EVALUATE_INTERVAL_MS: number;
  /** The longest an unknown uid waits for the user projection while it is behind the users log, before 404. */
  WELLSTREAM_RULES_USER_WAIT_MS: number;
}

export const rulesConfigSchema = Joi.object<RulesConfig>({
  ...serviceSettingsSchema,
  WELLSTREAM_RULES_ENABLED: Joi.boolean().default(false)
    .description('the rules feature for organizations whose operator setting is null (per organization: `PATCH /v2/admin/organizations/:id/settings {"rules_enabled"}`)'),
  WELLSTREAM_RULES_EVALUATE_INTERVAL_MS: Joi.number().integer().min(10).max(86_400_000).default(60_000)
    .description('how often every rule is judged again, so missing data is noticed without new data'),
  WELLSTREAM_RULES_USER_WAIT_MS: Joi.number().integer().min(0).max(30_000).default(1000)
    .description("the longest an unknown uid waits while the rules service's user projection is behind the users log, before 404"),
});

export const loadRulesConfig = (env: NodeJS.ProcessEnv = process.env): RulesConfig => loadConfig(rulesConfigSchema, env);
