export * from './document-store.port';
export { SqliteDocumentStore } from './document-store.sqlite';
export { MongoDocumentStore } from './document-store.mongo';
export type { MongoDocumentStoreOptions } from './document-store.mongo';
export { QueryRecorder, describeQuery, scanReason } from './query-guard';
export type { IssuedQuery, QueryOp, Backend } from './query-guard';
