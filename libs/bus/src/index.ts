export * from './event-log.port';
export * from './partitioner';
