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
  /** How long a replica holds a running FHIR export before another may take it over (it renews every third). */
  WELLSTREAM_FHIR_EXPORT_LEASE_MS: number;
  /** How long a finished FHIR export and its files are kept. */
  WELLSTREAM_FHIR_EXPORT_RETENTION_MS: number;
}

export const recordsConfigSchema = Joi.object<RecordsConfig>({
  ...serviceSettingsSchema,
  WELLSTREAM_RECORDS_USER_WAIT_MS: Joi.number().integer().min(0).max(60_000).default(10_000)
    .description("the longest an unknown mobile token waits while records' user projection is behind the users log (read-your-writes; a projection that is caught up refuses at once)"),
  WELLSTREAM_INGESTION_COUNT_FLUSH_MS: Joi.number().integer().min(100).max(600_000).default(1_000)
    .description("how often the per-organization, per-day ingestion counts gathered in memory are written out (the operator's `GET /v2/admin/organizations/:org_id/ingestion`)"),
  WELLSTREAM_FHIR_EXPORT_LEASE_MS: Joi.number().integer().min(300).max(600_000).default(30_000)
    .description('how long a records replica holds a running FHIR Bulk Data export without renewing it (it renews every third of this); an export whose replica stopped or died is taken over by another replica, or by the next start, this long after, and runs again from the start'),
  WELLSTREAM_FHIR_EXPORT_RETENTION_MS: Joi.number().integer().min(1_000).max(30 * 86_400_000).default(86_400_000)
    .description('how long a finished FHIR Bulk Data export (completed, failed or cancelled) and its NDJSON files are kept; afterwards its status URL and file links answer 404 (default 24 hours)'),
});

export const loadRecordsConfig = (env: NodeJS.ProcessEnv = process.env): RecordsConfig => loadConfig(recordsConfigSchema, env);
