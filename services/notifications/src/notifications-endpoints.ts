/** The notifications service's endpoints, declared in @wellstream/endpoints (method, path, documented answers). */
import { findEndpoint, notificationsEndpoints } from '@wellstream/endpoints';

export const notificationsEndpoint = (operationId: string) => findEndpoint(notificationsEndpoints, operationId);
