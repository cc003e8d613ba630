export * from './metrics';
export * from './resources';
export * from './sources';
