/**
 * The SDK's errors. An answer outside 2xx becomes an ApiError subclass chosen by its status, carrying
 * the documented error body (one of {"message"}, {"errors":[…]}, {"errors":{field:[…]}}), the
 * status, the request id and the rate-limit headers, so callers branch on the class, not on text.
 */
import type { RateLimit } from './rate-limit';

export class WellstreamError extends Error {
  override name = 'WellstreamError';
}

/** The documented error body: exactly one of the three shapes, or (the FHIR API) an OperationOutcome. */
export type ErrorBody = { message: string } | { errors: string[] } | { errors: Record<string, string[]> } | FhirOperationOutcome;
/** The FHIR API's error body (docs/fhir.md). */
export interface FhirOperationOutcome {
  resourceType: 'OperationOutcome';
  issue: { severity: string; code: string; diagnostics?: string }[];
}

export interface ApiErrorDetails {
  status: number;
  body: ErrorBody | string | undefined;
  method: string;
  url: string;
  requestId: string | null;
  rateLimit: RateLimit | null;
  retryAfterSeconds: number | null;
}

export class ApiError extends WellstreamError {
  override name = 'ApiError';
  readonly status: number;
  readonly body: ErrorBody | string | undefined;
  readonly requestId: string | null;
  readonly rateLimit: RateLimit | null;
  readonly retryAfterSeconds: number | null;
  readonly method: string;
  /** The URL that was requested, with the token removed. */
  readonly url: string;

  constructor(details: ApiErrorDetails) {
    super(`${details.method} ${details.url} answered ${details.status}: ${describeBody(details.body)}`);
    this.status = details.status;
    this.body = details.body;
    this.requestId = details.requestId;
    this.rateLimit = details.rateLimit;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.method = details.method;
    this.url = details.url;
  }

  /** Field errors of a 400/422 ({"errors":{field:[…]}}), empty otherwise. */
  get fieldErrors(): Record<string, string[]> {
    const b = this.body;
    return typeof b === 'object' && b && 'errors' in b && !Array.isArray(b.errors) ? b.errors : {};
  }
}

/** 400 and 422: the request was malformed or semantically wrong. */
export class ValidationError extends ApiError {
  override name = 'ValidationError';
}
/** 401: missing, unknown or revoked token, or a token not allowed for the organization. */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}
/**
 * 409 (deleting a stream that has clients connected), and the interface's 422 for something that
 * already exists: a duplicate uid (`{"errors":{"uid":["already exists"]}}`) or stream name.
 */
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}
/**
 * An answer that is not the API's JSON: an HTML page or text from a proxy, a wrong host or a base
 * URL without its `/v2`. `contentType` and the start of the text are kept for the message.
 */
export class UnexpectedResponseError extends ApiError {
  override name = 'UnexpectedResponseError';
  constructor(
    details: ApiErrorDetails,
    readonly contentType: string | null,
    hint: string,
  ) {
    super(details);
    const text = typeof details.body === 'string' ? details.body.replace(/\s+/g, ' ').trim().slice(0, 120) : '(no body)';
    this.message = `${details.method} ${details.url} answered ${details.status} with ${contentType ?? 'no content type'}, not the API's JSON: ${text}${hint}`;
  }
}
/** 429 after the retries allowed (or with a Retry-After longer than the SDK may wait). */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
}
/** 5xx, including 503 after the retries allowed. */
export class ServerError extends ApiError {
  override name = 'ServerError';
}

export function apiErrorFor(details: ApiErrorDetails): ApiError {
  const s = details.status;
  if (s === 409 || (s === 422 && alreadyExists(details.body))) return new ConflictError(details);
  if (s === 400 || s === 422) return new ValidationError(details);
  if (s === 401) return new AuthenticationError(details);
  if (s === 404) return new NotFoundError(details);
  if (s === 429) return new RateLimitError(details);
  if (s >= 500) return new ServerError(details);
  return new ApiError(details);
}

const alreadyExists = (body: ApiErrorDetails['body']) =>
  typeof body === 'object' && body !== null && 'errors' in body && !Array.isArray(body.errors) && Object.values(body.errors).some((messages) => messages.some((m) => /already exists/i.test(m)));

/** The call's timeout passed (`timeoutMs`, 30 s by default), or the caller's `AbortSignal.timeout()` fired. */
export class TimeoutError extends WellstreamError {
  override name = 'TimeoutError';
  constructor(
    message: string,
    readonly timeoutMs?: number,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** The caller's signal aborted the call (`reason` is the signal's). */
export class AbortedError extends WellstreamError {
  override name = 'AbortedError';
  constructor(
    message: string,
    readonly reason?: unknown,
  ) {
    super(message);
  }
}

/** The server could not be reached (refused, reset, DNS, timeout) after the retries allowed. */
export class ConnectionError extends WellstreamError {
  override name = 'ConnectionError';
  constructor(
    message: string,
    readonly url: string,
    override readonly cause?: unknown,
  ) {
    super(message);
  }
}

/** A call made without something it needs, or with a value it cannot take; thrown before any request is sent. */
export class ParameterError extends WellstreamError {
  override name = 'ParameterError';
}

export type SignatureFailure = 'missing_header' | 'malformed_header' | 'stale_timestamp' | 'mismatch' | 'malformed_body';

/** verifyPushSignature refused a delivery; `reason` says why (answer such a request 400 or 401). */
export class SignatureVerificationError extends WellstreamError {
  override name = 'SignatureVerificationError';
  constructor(
    readonly reason: SignatureFailure,
    message: string,
  ) {
    super(message);
  }
}

function describeBody(body: ApiErrorDetails['body']): string {
  if (body === undefined) return '(no body)';
  if (typeof body === 'string') return body.slice(0, 200);
  if ('message' in body) return body.message;
  if ('issue' in body) return body.issue.map((i) => i.diagnostics ?? i.code).join('; ');
  return Array.isArray(body.errors) ? body.errors.join('; ') : Object.entries(body.errors).map(([f, m]) => `${f}: ${m.join(', ')}`).join('; ');
}
