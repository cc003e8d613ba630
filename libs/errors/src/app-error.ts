/**
 * Domain errors with stable codes. Use cases throw these; only the HTTP edge (libs/http)
 * turns them into status codes and the three error body shapes of the OpenAPI document.
 */
export type ErrorKind =
  | 'unauthenticated' // 401 {"message"}
  | 'forbidden' // 401 {"errors":[...]} (token valid, organization not allowed)
  | 'not_found' // 404 {"errors":[...]}
  | 'bad_request' // 400 {"errors":{field:[...]}} or {"errors":[...]}
  | 'unprocessable' // 422 {"errors":{field:[...]}} or {"errors":[...]}
  | 'conflict' // 409 {"errors":[...]}
  | 'gone' // 410 {"errors":[...]} (a link past its lifetime)
  | 'rate_limited' // 429 {"message"} + Retry-After
  | 'unavailable' // 503 {"message"}
  | 'internal'; // 500 {"message"}

export type FieldErrors = Record<string, string[]>;

export interface AppErrorOptions {
  fieldErrors?: FieldErrors;
  retryAfterSeconds?: number;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: string;
  readonly kind: ErrorKind;
  readonly fieldErrors?: FieldErrors;
  readonly retryAfterSeconds?: number;

  constructor(kind: ErrorKind, code: string, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.kind = kind;
    this.code = code;
    this.fieldErrors = options.fieldErrors;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

export const unauthenticated = (code: string, message: string) => new AppError('unauthenticated', code, message);
export const forbidden = (code: string, message: string) => new AppError('forbidden', code, message);
export const notFound = (code: string, message: string) => new AppError('not_found', code, message);
export const conflict = (code: string, message: string) => new AppError('conflict', code, message);
export const gone = (code: string, message: string) => new AppError('gone', code, message);
export const unavailable = (code: string, message: string) => new AppError('unavailable', code, message);

/** 400 with per-field messages (or a single message when no field applies). */
export const badRequest = (code: string, fieldErrorsOrMessage: FieldErrors | string) =>
  typeof fieldErrorsOrMessage === 'string'
    ? new AppError('bad_request', code, fieldErrorsOrMessage)
    : new AppError('bad_request', code, summarize(fieldErrorsOrMessage), { fieldErrors: fieldErrorsOrMessage });

/** 422 with per-field messages (or a single message when no field applies). */
export const unprocessable = (code: string, fieldErrorsOrMessage: FieldErrors | string) =>
  typeof fieldErrorsOrMessage === 'string'
    ? new AppError('unprocessable', code, fieldErrorsOrMessage)
    : new AppError('unprocessable', code, summarize(fieldErrorsOrMessage), { fieldErrors: fieldErrorsOrMessage });

export const rateLimited = (message: string, retryAfterSeconds: number) =>
  new AppError('rate_limited', 'RATE_LIMITED', message, { retryAfterSeconds });

function summarize(fields: FieldErrors): string {
  return Object.entries(fields)
    .map(([field, msgs]) => `${field}: ${msgs.join(', ')}`)
    .join('; ');
}
