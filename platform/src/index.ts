export { startPlatform } from './start-platform';
export type { RunningPlatform } from './start-platform';
