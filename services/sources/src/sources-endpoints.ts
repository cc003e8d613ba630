/**
 * The sources service's endpoints, declared in @wellstream/endpoints: its own (Reconnect, the OAuth
 * callback, the webhooks) and the marketplace's Connect and Disconnect, which the users service
 * declares and delegates here for provider types.
 */
import { findEndpoint, sourcesEndpoints, usersEndpoints } from '@wellstream/endpoints';

export const sourcesEndpoint = (operationId: string) => findEndpoint(sourcesEndpoints, operationId);

/** A users endpoint whose provider types the gateway sends here (its `delegate`). */
export function delegatedEndpoint(operationId: string) {
  const declaration = findEndpoint(usersEndpoints, operationId);
  if (declaration.delegate?.service !== 'sources') throw new Error(`${operationId} is not delegated to the sources service`);
  return declaration;
}
