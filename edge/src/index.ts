export { composeEdge } from './compose';
export type { RunningEdge } from './compose';
export { edgeConfigSchema, loadEdgeConfig } from './config';
export type { EdgeConfig } from './config';
