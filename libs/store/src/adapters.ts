/**
 * The adapters behind the document-store port, apart from the package's main entry so that code
 * which only needs the port (repositories, use cases) never loads a driver. Composition roots and
 * adapter tests import `@wellstream/store/adapters`.
 */
export { SqliteDocumentStore } from './document-store.sqlite';
export { MongoDocumentStore } from './document-store.mongo';
export type { MongoDocumentStoreOptions } from './document-store.mongo';
