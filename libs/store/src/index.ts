export * from './document-store.port';
export { SqliteDocumentStore } from './document-store.sqlite';
