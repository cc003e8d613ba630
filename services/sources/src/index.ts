export { composeSources } from './compose';
export { loadSourcesConfig, sourcesConfigSchema } from './config';
export type { SourcesConfig } from './config';
