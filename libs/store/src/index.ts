export * from './document-store.port';
export { SqliteDocumentStore } from './document-store.sqlite';
export { MongoDocumentStore } from './document-store.mongo';
export type { MongoDocumentStoreOptions } from './document-store.mongo';
