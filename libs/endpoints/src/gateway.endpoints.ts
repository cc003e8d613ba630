/** The gateway's own operator API (the gateway's express app answers these; admin token). */
import { endpoints } from './endpoint';

const admin = 'admin' as const;

export const gatewayEndpoints = endpoints('gateway', [
  { operationId: 'listCustomers', method: 'get', path: '/admin/customers', auth: admin },
  { operationId: 'createCustomer', method: 'post', path: '/admin/customers', auth: admin },
  { operationId: 'getCustomer', method: 'get', path: '/admin/customers/{customer_id}', auth: admin },
  { operationId: 'deleteCustomer', method: 'delete', path: '/admin/customers/{customer_id}', auth: admin },
  { operationId: 'listOrganizations', method: 'get', path: '/admin/customers/{customer_id}/organizations', auth: admin },
  { operationId: 'createOrganization', method: 'post', path: '/admin/customers/{customer_id}/organizations', auth: admin },
  { operationId: 'listTokens', method: 'get', path: '/admin/customers/{customer_id}/tokens', auth: admin },
  { operationId: 'issueToken', method: 'post', path: '/admin/customers/{customer_id}/tokens', auth: admin },
  { operationId: 'getToken', method: 'get', path: '/admin/customers/{customer_id}/tokens/{token_id}', auth: admin },
  { operationId: 'revokeToken', method: 'delete', path: '/admin/tokens/{token}', auth: admin },
  { operationId: 'getOrganization', method: 'get', path: '/admin/organizations/{org_id}', auth: admin },
  { operationId: 'updateOrganizationSettings', method: 'patch', path: '/admin/organizations/{org_id}/settings', auth: admin },
]);
