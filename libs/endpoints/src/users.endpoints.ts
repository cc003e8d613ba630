/**
 * The users service: users, their marketplace page, each organization's connected sources for the
 * operator, and the data lifecycle (exports, erasure, the audit log).
 */
import { PROVIDER_SOURCE_TYPES } from '@wellstream/catalog';
import { endpoints } from './endpoint';

const developer = { auth: 'developer', organizationParam: 'org_id' } as const;
const admin = { auth: 'admin' } as const;
const open = { auth: 'public' } as const;
// A provider source connects through OAuth, which the sources service owns; the demo and phone sources are users'.
const providerSources = { param: 'type', values: PROVIDER_SOURCE_TYPES, service: 'sources' } as const;

export const usersEndpoints = endpoints('users', [
  { operationId: 'listUsers', method: 'get', path: '/organizations/{org_id}/users', ...developer },
  { operationId: 'createUser', method: 'post', path: '/organizations/{org_id}/users', ...developer },
  { operationId: 'getUser', method: 'get', path: '/organizations/{org_id}/users/{uid}', ...developer },
  { operationId: 'updateUser', method: 'put', path: '/organizations/{org_id}/users/{uid}', ...developer },
  { operationId: 'deleteUser', method: 'delete', path: '/organizations/{org_id}/users/{uid}', ...developer },
  { operationId: 'refreshMarketplace', method: 'post', path: '/organizations/{org_id}/users/{uid}/marketplace', ...developer },
  { operationId: 'suspendUser', method: 'post', path: '/admin/organizations/{org_id}/users/{uid}/suspend', ...admin },
  { operationId: 'unsuspendUser', method: 'post', path: '/admin/organizations/{org_id}/users/{uid}/unsuspend', ...admin },
  { operationId: 'openMarketplace', method: 'get', path: '/marketplace/{token}', ...open },
  { operationId: 'connectSource', method: 'post', path: '/marketplace/{token}/sources/{type}/connect', ...open, delegate: providerSources },
  { operationId: 'disconnectSource', method: 'post', path: '/marketplace/{token}/sources/{type}/disconnect', ...open, delegate: providerSources },
  { operationId: 'chooseTimezone', method: 'post', path: '/marketplace/{token}/timezone', ...open },
  { operationId: 'adminCountOrganizationSources', method: 'get', path: '/admin/organizations/{org_id}/sources', ...admin },
  { operationId: 'requestUserExport', method: 'post', path: '/admin/organizations/{org_id}/users/{uid}/exports', ...admin },
  { operationId: 'getUserExport', method: 'get', path: '/admin/organizations/{org_id}/users/{uid}/exports/{export_id}', ...admin },
  { operationId: 'eraseUser', method: 'post', path: '/admin/organizations/{org_id}/users/{uid}/erasure', ...admin },
  { operationId: 'listAuditLog', method: 'get', path: '/admin/audit_log', ...admin },
  // The signed, short-lived link is the credential (no token, no rate limit).
  { operationId: 'downloadUserExport', method: 'get', path: '/exports/{export_id}/download', ...open },
]);
