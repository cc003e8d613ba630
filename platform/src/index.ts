export { startPlatform } from './start-platform';
export type { RunningPlatform } from './start-platform';
export { configReference, DEPLOYABLES, EXTRA_VARIABLES } from './config-reference';
