/**
 * What only tests do to a store, kept off the DocumentStore port so production code cannot call it:
 * the adapters implement it, and tests that need it ask for this type.
 */
import type { DocumentStore, Filter, SortSpec } from './document-store.port';

export interface TestableDocumentStore extends DocumentStore {
  /** Deletes everything; refuses unless the store's name says it is a test target. */
  dropForTests(): Promise<void>;
}

/** A query as the hot-path guard recorded it (query-guard.ts), to be planned by a store. */
export interface ExplainableQuery {
  collection: string;
  op: 'findOne' | 'find' | 'findPages' | 'count' | 'findOneAndUpdate' | 'updateMany' | 'deleteMany';
  filter: Filter;
  sort?: SortSpec;
  limit?: number;
}

/** What the store's own planner does with a query: `scan` when it reads the whole collection. */
export interface QueryPlan {
  scan: boolean;
  /** A limited read that sorts every match before it returns the first ones. */
  sortsAll: boolean;
  plan: string;
}

/** A store whose own planner can be asked (SQLite: EXPLAIN QUERY PLAN). */
export interface ExplainingDocumentStore extends DocumentStore {
  explainForTests(query: ExplainableQuery): Promise<QueryPlan>;
}
