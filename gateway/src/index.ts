export { composeGateway } from './compose';
export type { RunningGateway } from './compose';
export { gatewayConfigSchema, loadGatewayConfig } from './config';
export type { GatewayConfig } from './config';
export type { ServiceName } from './proxy/route-table';
