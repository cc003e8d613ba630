/**
 * The records service: ingestion from the mobile solution, the record reads, what it merges by
 * (source priority) and what it holds per source (availability, ingestion counts).
 */
import { RESOURCE_PATHS } from '@wellstream/catalog';
import { endpoints } from './endpoint';

const developer = { auth: 'developer', organizationParam: 'org_id' } as const;
const admin = { auth: 'admin' } as const;

export const recordsEndpoints = endpoints('records', [
  // The user's mobile token (a query parameter) is the credential.
  { operationId: 'ingestMobileRecords', method: 'post', path: '/mobile/records', auth: 'public' },
  ...Object.keys(RESOURCE_PATHS).map((plural) => ({
    operationId: `list${plural[0].toUpperCase()}${plural.slice(1)}`,
    method: 'get' as const,
    path: `/organizations/{org_id}/users/{uid}/${plural}`,
    ...developer,
  })),
  { operationId: 'getSourcePriority', method: 'get', path: '/organizations/{org_id}/source_priority', ...developer },
  { operationId: 'putSourcePriority', method: 'put', path: '/organizations/{org_id}/source_priority', ...developer },
  { operationId: 'adminGetSourcePriority', method: 'get', path: '/admin/organizations/{org_id}/source_priority', ...admin },
  { operationId: 'adminPutSourcePriority', method: 'put', path: '/admin/organizations/{org_id}/source_priority', ...admin },
  { operationId: 'getAvailability', method: 'get', path: '/organizations/{org_id}/users/{uid}/availability', ...developer },
  { operationId: 'adminGetIngestion', method: 'get', path: '/admin/organizations/{org_id}/ingestion', ...admin },
]);
