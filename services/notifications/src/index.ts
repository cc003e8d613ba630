export { composeNotifications } from './compose';
export { loadNotificationsConfig, notificationsConfigSchema } from './config';
export type { NotificationsConfig } from './config';
