/** The streams service's endpoints, declared in @wellstream/endpoints (method, path, checks' answers). */
import { findEndpoint, streamsEndpoints } from '@wellstream/endpoints';

export const streamEndpoint = (operationId: string) => findEndpoint(streamsEndpoints, operationId);
