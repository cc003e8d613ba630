/**
 * The sources service's endpoints, declared in @wellstream/endpoints: its own (Reconnect, the OAuth
 * callback, the webhooks) and the marketplace's Connect and Disconnect, which the document
 * publishes among the users service's marketplace operations.
 */
import { findEndpoint, marketplaceSourcesEndpoints, sourcesEndpoints } from '@wellstream/endpoints';

const declared = [...sourcesEndpoints, ...marketplaceSourcesEndpoints];

export const sourcesEndpoint = (operationId: string) => findEndpoint(declared, operationId);
