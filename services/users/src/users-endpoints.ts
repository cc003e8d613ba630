/** The users service's endpoints, declared in @wellstream/endpoints (method, path, documented answers). */
import { findEndpoint, usersEndpoints } from '@wellstream/endpoints';

export const usersEndpoint = (operationId: string) => findEndpoint(usersEndpoints, operationId);
