export * from './caller';
export * from './create-service-app';
export * from './error-response';
export * from './gateway-assertion';
export * from './gateway-trust.middleware';
export * from './http-server';
export * from './openapi-parts';
export * from './request-context';
export * from './organization-ownership';
// Routes validate bodies and queries with the same helpers the use cases use.
export { fieldPath, joiFieldErrors, validate } from '@wellstream/errors';
export * from './health';
export * from './metrics';
export * from './json-pages';
export * from './html-security-headers';
export * from './endpoint-route';
export * from './fhir-error';
export * from './idempotent-writes';
