export { composeStreams } from './compose';
export { loadStreamsConfig, streamsConfigSchema } from './config';
export type { StreamsConfig } from './config';
