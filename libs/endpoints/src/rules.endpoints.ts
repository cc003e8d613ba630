/** The rules service: a user's adherence rules. */
import { endpoints } from './endpoint';

const developer = { auth: 'developer', organizationParam: 'org_id' } as const;

export const rulesEndpoints = endpoints('rules', [
  { operationId: 'listRules', method: 'get', path: '/organizations/{org_id}/users/{uid}/rules', ...developer },
  { operationId: 'createRule', method: 'post', path: '/organizations/{org_id}/users/{uid}/rules', ...developer },
  { operationId: 'getRule', method: 'get', path: '/organizations/{org_id}/users/{uid}/rules/{rule_id}', ...developer },
  { operationId: 'updateRule', method: 'put', path: '/organizations/{org_id}/users/{uid}/rules/{rule_id}', ...developer },
  { operationId: 'deleteRule', method: 'delete', path: '/organizations/{org_id}/users/{uid}/rules/{rule_id}', ...developer },
]);
