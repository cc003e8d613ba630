export * from './document-store.port';
export { QueryRecorder, describeQuery, scanReason } from './query-guard';
export type { IssuedQuery, QueryOp, Backend } from './query-guard';
