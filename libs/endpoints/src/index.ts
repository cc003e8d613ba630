/**
 * Every endpoint of the platform, declared once (README.md: how to add one). The gateway routes by
 * them and merges the OpenAPI parts built from them; a service registers its routes at their paths.
 */
import type { EndpointDeclaration, PrefixDeclaration } from './endpoint';
import { marketplaceSourcesEndpoints, marketplaceSourcesPrefix } from './sources/marketplace-sources.endpoints';
import { gatewayEndpoints, gatewayOpenApi } from './gateway/gateway.endpoints';
import { operatorReadsEndpoints, operatorReadsOpenApi } from './gateway/operator-reads.endpoints';
import { notificationsEndpoints, notificationsOpenApi } from './notifications/notifications.endpoints';
import { recordsEndpoints, recordsOpenApi } from './records/records.endpoints';
import { rulesEndpoints, rulesOpenApi } from './rules/rules.endpoints';
import { sourcesEndpoints, sourcesOpenApi } from './sources/sources.endpoints';
import { streamsEndpoints, streamsOpenApi } from './streams/streams.endpoints';
import { usersEndpoints, usersOpenApi } from './users/users.endpoints';

export * from './endpoint';
export * from './openapi-part';
export * from './routing';
// Services register their routes with it (@wellstream/http endpointRoute).
export { expressPath } from '@wellstream/http';
export {
  gatewayEndpoints,
  gatewayOpenApi,
  operatorReadsEndpoints,
  operatorReadsOpenApi,
  notificationsEndpoints,
  notificationsOpenApi,
  recordsEndpoints,
  recordsOpenApi,
  rulesEndpoints,
  rulesOpenApi,
  sourcesEndpoints,
  sourcesOpenApi,
  marketplaceSourcesEndpoints,
  streamsEndpoints,
  streamsOpenApi,
  usersEndpoints,
  usersOpenApi,
};

export const ENDPOINTS: readonly EndpointDeclaration[] = [
  ...gatewayEndpoints,
  ...operatorReadsEndpoints,
  ...usersEndpoints,
  ...recordsEndpoints,
  ...streamsEndpoints,
  ...notificationsEndpoints,
  ...rulesEndpoints,
  ...sourcesEndpoints,
  ...marketplaceSourcesEndpoints,
];

/** Paths a service answers whole (routing only). */
export const ROUTE_PREFIXES: readonly PrefixDeclaration[] = [marketplaceSourcesPrefix];
