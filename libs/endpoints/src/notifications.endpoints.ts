/** The notifications service: an organization's push target and its batches. */
import { endpoints } from './endpoint';

const developer = { auth: 'developer', organizationParam: 'org_id' } as const;

export const notificationsEndpoints = endpoints('notifications', [
  { operationId: 'getNotificationTarget', method: 'get', path: '/organizations/{org_id}/notification_target', ...developer },
  { operationId: 'configureNotificationTarget', method: 'put', path: '/organizations/{org_id}/notification_target', ...developer },
  { operationId: 'deleteNotificationTarget', method: 'delete', path: '/organizations/{org_id}/notification_target', ...developer },
  { operationId: 'listNotificationBatches', method: 'get', path: '/organizations/{org_id}/notifications', ...developer },
  { operationId: 'getNotificationBatch', method: 'get', path: '/organizations/{org_id}/notifications/{id}', ...developer },
  { operationId: 'redeliverNotificationBatch', method: 'post', path: '/organizations/{org_id}/notifications/{id}/redeliver', ...developer },
]);
