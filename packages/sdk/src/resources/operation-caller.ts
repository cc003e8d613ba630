/**
 * The one way every typed method sends its operation: looks the operation up in the generated
 * table (method, path template, whether it takes the developer token) and types the answer from
 * the generated OpenAPI types.
 */
import type { HttpClient, RequestOptions } from '../http-client';
import { OPERATIONS, OperationId } from '../generated/operation-table';
import type { CallParams, ResponseBody } from '../operation-types';
import type { WithResponse } from '../rate-limit';

export type Caller = <K extends OperationId>(id: K, params: CallParams<K>, options?: RequestOptions) => Promise<WithResponse<ResponseBody<K>>>;

export function operationCaller(http: HttpClient): Caller {
  return (id, params, options) => http.request(OPERATIONS[id], params as never, options);
}
