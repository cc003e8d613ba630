/**
 * Settings of the records service, validated once at start-up.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';

export interface RecordsConfig extends ServiceSettings {
  /**
   * The longest an unknown mobile token waits for the user projection to handle what the users log
   * held when the lookup missed; it waits only while the projection is behind (mobile-user-finder.ts).
   */
  WELLSTREAM_RECORDS_USER_WAIT_MS: number;
  /** How often the per-organization, per-day ingestion counts gathered in process are written out. */
  WELLSTREAM_INGESTION_COUNT_FLUSH_MS: number;
}

export const recordsConfigSchema = Joi.object<RecordsConfig>({
  ...serviceSettingsSchema,
  WELLSTREAM_RECORDS_USER_WAIT_MS: Joi.number().integer().min(0).max(60_000).default(10_000)
    .description("the longest an unknown mobile token waits while records' user projection is behind the users log (read-your-writes; a projection that is caught up refuses at once)"),
  WELLSTREAM_INGESTION_COUNT_FLUSH_MS: Joi.number().integer().min(100).max(600_000).default(1_000)
    .description("how often the per-organization, per-day ingestion counts gathered in memory are written out (the operator's `GET /v2/admin/organizations/:org_id/ingestion`)"),
});

export const loadRecordsConfig = (env: NodeJS.ProcessEnv = process.env): RecordsConfig => loadConfig(recordsConfigSchema, env);
