/** The gateway's own endpoints (the operator API), declared in @wellstream/endpoints (method, path, documented answers). */
import { findEndpoint, gatewayEndpoints, operatorReadsEndpoints } from '@wellstream/endpoints';

export const gatewayEndpoint = (operationId: string) => findEndpoint([...gatewayEndpoints, ...operatorReadsEndpoints], operationId);
