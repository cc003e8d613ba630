/**
 * Distributed entry point: one notifications service process (node services/notifications/dist/main.js).
 */
import { runServiceMain } from '@wellstream/runtime';
import { composeNotifications } from './compose';
import { loadNotificationsConfig } from './config';

runServiceMain('notifications', () => composeNotifications(loadNotificationsConfig()));
