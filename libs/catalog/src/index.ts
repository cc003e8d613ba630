export * from './metrics';
export * from './resources';
export * from './sources';
export * from './api-values';
