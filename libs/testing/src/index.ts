export * from './api-client';
export * from './real-servers';
export * from './sse-client';
export * from './test-platform';
export * from './process-platform';
export * from './signed-headers';
export * from './openapi-conformance';
export * from './record-fixtures';
