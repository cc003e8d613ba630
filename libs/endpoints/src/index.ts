/**
 * Every endpoint of the platform, declared once (README.md: how to add one). The gateway routes by
 * them; a service imports its own list.
 */
import type { EndpointDeclaration } from './endpoint';
import { gatewayEndpoints } from './gateway.endpoints';
import { notificationsEndpoints } from './notifications.endpoints';
import { recordsEndpoints } from './records.endpoints';
import { rulesEndpoints } from './rules.endpoints';
import { sourcesEndpoints } from './sources.endpoints';
import { streamsEndpoints } from './streams.endpoints';
import { usersEndpoints } from './users.endpoints';

export * from './endpoint';
export * from './routing';
export { gatewayEndpoints, notificationsEndpoints, recordsEndpoints, rulesEndpoints, sourcesEndpoints, streamsEndpoints, usersEndpoints };

export const ENDPOINTS: readonly EndpointDeclaration[] = [
  ...gatewayEndpoints,
  ...usersEndpoints,
  ...recordsEndpoints,
  ...streamsEndpoints,
  ...notificationsEndpoints,
  ...rulesEndpoints,
  ...sourcesEndpoints,
];
