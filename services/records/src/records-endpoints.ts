/** The records service's endpoints, declared in @wellstream/endpoints (method, path, documented answers). */
import { findEndpoint, recordsEndpoints } from '@wellstream/endpoints';

export const recordsEndpoint = (operationId: string) => findEndpoint(recordsEndpoints, operationId);
