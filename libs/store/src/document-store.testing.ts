/**
 * What only tests do to a store, kept off the DocumentStore port so production code cannot call it:
 * the adapters implement it, and tests that need it ask for this type.
 */
import type { DocumentStore } from './document-store.port';

export interface TestableDocumentStore extends DocumentStore {
  /** Deletes everything; refuses unless the store's name says it is a test target. */
  dropForTests(): Promise<void>;
}
