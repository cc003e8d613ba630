export * from './document-store.port';
export type { TestableDocumentStore, ExplainingDocumentStore, ExplainableQuery, QueryPlan } from './document-store.testing';
export { QueryRecorder, describeQuery, scanReason } from './query-guard';
export type { IssuedQuery, QueryOp, Backend, JudgedQuery } from './query-guard';
export { insertClaim, Leases } from './claims';
/** An update applied to a copy of a document, as every adapter applies it (callers that announce the result of a write). */
export { applyUpdate } from './apply-update';
