/**
 * Settings of the records service, validated once at start-up.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';

export interface RecordsConfig extends ServiceSettings {
  /** How often the demo source refreshes today's data for each user with demo connected. */
  WELLSTREAM_DEMO_TICK_MS: number;
  /** Days the demo source fills in when it is connected (today not counted). */
  WELLSTREAM_DEMO_BACKFILL_DAYS: number;
  /** How often the outbox relay looks for events it has not published yet. */
  WELLSTREAM_OUTBOX_DRAIN_MS: number;
  /** Age after which a half-written outbox entry (process died mid-request) is resolved. */
  WELLSTREAM_OUTBOX_STALE_MS: number;
}

export const recordsConfigSchema = Joi.object<RecordsConfig>({
  ...serviceSettingsSchema,
  WELLSTREAM_DEMO_TICK_MS: Joi.number().integer().min(100).default(60_000),
  WELLSTREAM_DEMO_BACKFILL_DAYS: Joi.number().integer().min(0).max(30).default(7),
  WELLSTREAM_OUTBOX_DRAIN_MS: Joi.number().integer().min(50).default(2_000),
  WELLSTREAM_OUTBOX_STALE_MS: Joi.number().integer().min(0).default(30_000),
});

export const loadRecordsConfig = (env: NodeJS.ProcessEnv = process.env): RecordsConfig => loadConfig(recordsConfigSchema, env);
