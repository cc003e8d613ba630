/**
 * The `Idempotency-Key` header of the POSTs that create something (a user, records, a stream, an
 * export): declared here once so the published document shows it, its 400, 409 and 422 answers on
 * each of those operations. The behaviour is @wellstream/http idempotent-writes.
 */
import { errorResponse } from '@wellstream/http';
import type { DeclaredOperation } from './endpoint';

const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

export const idempotencyKeyParam = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
  description:
    'Any unique string (a UUID) chosen by the caller for one logical request. A retry with the same key (same customer, method and path) within 24 h ' +
    'is not run again: it gets the first answer (status, body, Content-Type and Location) with `Idempotent-Replayed: true`. Answers of 5xx are not kept. ' +
    'While the first is still running a retry waits up to 10 s, then answers 409 with Retry-After.',
};

const notes = {
  400: 'An Idempotency-Key empty or longer than 255 characters: {"errors":{"Idempotency-Key":["must be 1 to 255 characters"]}}.',
  409: 'A request with this Idempotency-Key is still running (retry after Retry-After seconds).',
  422: 'The Idempotency-Key was used with another request body: {"errors":{"Idempotency-Key":["was used with another request body"]}}.',
} as const;

type Response = { description: string };
const PATH_400 = 'A path segment that is not valid percent-encoding ({"errors":[…]}).';

/**
 * The operation with the header and the answers it adds (a status already documented gets the note
 * appended). A 400 it adds also names what the gateway would have documented there (a path segment
 * that is not valid percent-encoding) when the path has parameters, since the gateway adds its answers
 * only where one is missing.
 */
export function idempotent<T extends DeclaredOperation>(operation: T, options: { pathParameters?: boolean } = {}): T {
  const responses = { ...(operation.responses as Record<string, Response> | undefined) };
  for (const [status, note] of Object.entries(notes)) {
    const existing = responses[status];
    const fresh = status === '400' && options.pathParameters ? `${PATH_400} ${note}` : note;
    responses[status] = existing ? { ...existing, description: `${existing.description} ${note}` } : errorResponse(Number(status), fresh);
  }
  return { ...operation, parameters: [...((operation.parameters as unknown[] | undefined) ?? []), idempotencyKeyParam], responses };
}
