/**
 * Settings of the notifications service, validated once at start-up.
 */
import Joi from 'joi';
import { loadConfig, serviceSettingsSchema, ServiceSettings } from '@wellstream/config';

export type NotificationsConfig = ServiceSettings;

export const notificationsConfigSchema = Joi.object<NotificationsConfig>({
  ...serviceSettingsSchema,
});

export const loadNotificationsConfig = (env: NodeJS.ProcessEnv = process.env): NotificationsConfig => loadConfig(notificationsConfigSchema, env);
