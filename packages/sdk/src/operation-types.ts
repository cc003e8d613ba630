/**
 * Request and answer types of each operation, read off the generated OpenAPI types, so a method's
 * parameters and result follow the served document (a required path parameter or body that is
 * missing does not compile).
 */
import type { components, operations } from './generated/openapi';
import type { OperationId } from './generated/operation-table';
import type { WithDates } from './request-encoding';

export type Schemas = components['schemas'];
type Op<K extends OperationId> = operations[K];
type Defined<T> = [T] extends [never] ? false : [T] extends [undefined] ? false : true;

export type PathParams<K extends OperationId> = Op<K>['parameters'] extends { path: infer P } ? P : never;
/** A Date is accepted wherever a time or a date goes (request-encoding.ts). */
export type QueryParams<K extends OperationId> = Op<K>['parameters'] extends { query?: infer Q } ? WithDates<Exclude<Q, undefined>> : never;
type BodyOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
export type RequestBody<K extends OperationId> = WithDates<BodyOf<Exclude<Op<K>['requestBody'], undefined>>>;
type BodyRequired<K extends OperationId> = undefined extends Op<K>['requestBody'] ? false : true;

type Success = 200 | 201 | 202;
type AnswerOf<R> = R extends { content: { 'application/json': infer B } }
  ? B
  : R extends { content: { 'application/fhir+json': infer F } }
    ? F
    : R extends { content: { 'text/html': unknown } }
      ? string
      : never;
/** The JSON (FHIR JSON, or for HTML pages text) body of a 2xx answer; distributes over a union of operations. */
export type ResponseBody<K extends OperationId> = K extends OperationId
  ? {
      [C in keyof Op<K>['responses']]: C extends Success ? AnswerOf<Op<K>['responses'][C]> : never;
    }[keyof Op<K>['responses']]
  : never;

/** What `call(operationId, params)` takes: required parts are required, absent parts forbidden. */
export type CallParams<K extends OperationId> = (Defined<PathParams<K>> extends true ? { path: PathParams<K> } : { path?: undefined }) &
  (Defined<QueryParams<K>> extends true ? { query?: QueryParams<K> } : { query?: undefined }) &
  (Defined<RequestBody<K>> extends true ? (BodyRequired<K> extends true ? { body: RequestBody<K> } : { body?: RequestBody<K> }) : { body?: undefined });
