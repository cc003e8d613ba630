/**
 * Errors on the FHIR paths (`/v2/organizations/:org_id/fhir/…`) as a FHIR OperationOutcome in
 * `application/fhir+json`, with the status the REST API would give: a FHIR client reads every
 * answer of a FHIR server, the gateway's own 401 and 429 included, as FHIR.
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from '@wellstream/logging';
import { toHttpError } from './error-response';

export const FHIR_CONTENT_TYPE = 'application/fhir+json; charset=utf-8';
const FHIR_PATH = /^\/v2\/organizations\/[^/]+\/fhir(?:\/|$)/;

/** Whether a request path (without its query) is one of the FHIR API's. */
export const isFhirPath = (path: string): boolean => FHIR_PATH.test(path);

const ISSUE_CODE: Record<number, string> = { 202: 'informational', 400: 'invalid', 401: 'login', 403: 'forbidden', 404: 'not-found', 410: 'deleted', 422: 'processing', 429: 'throttled', 503: 'transient' };

export function operationOutcomeOf(status: number, messages: string[]): object {
  return {
    resourceType: 'OperationOutcome',
    issue: messages.map((diagnostics) => ({ severity: status >= 500 ? 'fatal' : status < 300 ? 'information' : 'error', code: ISSUE_CODE[status] ?? 'exception', diagnostics })),
  };
}

export function sendFhir(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': FHIR_CONTENT_TYPE, 'Content-Length': String(Buffer.byteLength(text)) });
  res.end(text);
}

/** answerError's twin for the FHIR paths: the same status and headers, the body an OperationOutcome. */
export function answerFhirError(res: ServerResponse, err: unknown, logger: Logger): void {
  const out = toHttpError(err);
  if (out.status >= 500) logger.error('request failed', { error: err, stack: (err as Error)?.stack });
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = out.body as { message?: string; errors?: string[] | Record<string, string[]> };
  const messages =
    body.message !== undefined
      ? [body.message]
      : Array.isArray(body.errors)
        ? body.errors
        : Object.entries(body.errors ?? {}).flatMap(([field, list]) => list.map((m) => (m.includes(field) ? m : `${field}: ${m}`)));
  sendFhir(res, out.status, operationOutcomeOf(out.status, messages), out.headers);
}
