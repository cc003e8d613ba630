export * from './document-store.port';
export type { TestableDocumentStore } from './document-store.testing';
export { QueryRecorder, describeQuery, scanReason } from './query-guard';
export type { IssuedQuery, QueryOp, Backend } from './query-guard';
