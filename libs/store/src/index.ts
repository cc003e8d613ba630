export * from './document-store.port';
export type { TestableDocumentStore, ExplainingDocumentStore, ExplainableQuery, QueryPlan } from './document-store.testing';
export { QueryRecorder, describeQuery, scanReason } from './query-guard';
export type { IssuedQuery, QueryOp, Backend, JudgedQuery } from './query-guard';
export { insertClaim, Leases } from './claims';
