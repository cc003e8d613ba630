/**
 * Sends one operation: fills the path template, adds the token, retries 429/503 and connection
 * failures per the retry policy, and turns any other non-2xx answer into a typed ApiError. Uses
 * only fetch, URL and Headers, so it runs unchanged in Node.js 20+ and browsers.
 */
import { apiErrorFor, ApiErrorDetails, ConnectionError, ParameterError, ServerError, UnexpectedResponseError } from './errors';
import { attachResponse, rateLimitOf, ResponseMeta, retryAfterSeconds, WithResponse } from './rate-limit';
import { deadline } from './request-deadline';
import { encodeBody, encodeQueryValue } from './request-encoding';
import { DEFAULT_RETRY, RETRIED_STATUSES, retryDelayMs, RetryOptions, sleep } from './retry-policy';
import { SDK_VERSION } from './version';

/** A call's default timeout: long enough for the slowest documented read, short enough to notice a server that hangs. */
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface OperationSpec {
  method: string;
  path: string;
  /** Whether the developer token goes with the call (marketplace pages and mobile ingestion take none). */
  developerToken: boolean;
  /** The media type asked for (the marketplace answers HTML or JSON by Accept). */
  accept: string;
  /** The operation honours `Idempotency-Key` (a retried call has one effect). */
  idempotent?: boolean;
}

export interface RequestParams {
  path?: Record<string, string | number | undefined> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
}

export interface RequestOptions {
  /** Aborting throws AbortedError (or TimeoutError for `AbortSignal.timeout()`). */
  signal?: AbortSignal;
  /** This call's timeout in ms (the client's `timeoutMs` otherwise); 0 or Infinity waits for ever. */
  timeoutMs?: number;
  /** Overrides the client's retry settings for this call. */
  retry?: RetryOptions;
  /** Request headers an operation needs besides the SDK's own (FHIR's `Prefer: respond-async`). */
  headers?: Record<string, string>;
  /**
   * The `Idempotency-Key` of an operation that honours it (creating a user, a stream, an export;
   * ingesting records): the same key within 24 h gets the first answer, never a second effect.
   * Without one the client makes a key per call and sends it on every attempt of that call.
   */
  idempotencyKey?: string;
}

export interface HttpClientOptions {
  /** base_url, e.g. http://127.0.0.1:8080/v2 */
  baseUrl: string;
  /** The developer token (or the admin token for the operator API). */
  token?: string;
  /**
   * How the token travels: `header` (default) as `Authorization: Bearer <token>`, which keeps it out
   * of URLs and the logs that record them; `query` as the interface's `token` parameter.
   */
  tokenIn?: 'header' | 'query';
  retry?: RetryOptions;
  /** Each call's timeout in ms, retries and the answer's body included; TimeoutError after it. Default 30 000. */
  timeoutMs?: number;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
  /** Called with every answer, retried ones included (logging, metrics, the latest rate limit). */
  onResponse?: (meta: ResponseMeta & { method: string; path: string }) => void;
}

export class HttpClient {
  readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: HttpClientOptions) {
    this.baseUrl = checkedBaseUrl(options.baseUrl);
    this.fetchImpl = options.fetch ?? ((...args) => globalThis.fetch(...args));
  }

  get token(): string | undefined {
    return this.options.token;
  }

  url(op: OperationSpec, params: RequestParams): URL {
    const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = params.path?.[name];
      if (value === undefined || value === null || value === '') throw new ParameterError(`${op.method} ${op.path}: the path parameter "${name}" is required`);
      return encodeURIComponent(String(value));
    });
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(params.query ?? {})) {
      if (v === undefined || v === null) continue;
      url.searchParams.set(k, encodeQueryValue(k, v));
    }
    if (op.developerToken) {
      if (!this.options.token) throw new ParameterError(`${op.method} ${op.path} needs a token: pass { token } to the client`);
      if (this.options.tokenIn === 'query') url.searchParams.set('token', this.options.token);
    }
    return url;
  }

  /** Headers every request of `op` carries besides its own: the token (header mode) and, in Node, a User-Agent naming the SDK. */
  baseHeaders(op: OperationSpec): Record<string, string> {
    const headers: Record<string, string> = { ...USER_AGENT };
    if (op.developerToken && this.options.tokenIn !== 'query' && this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    return headers;
  }

  async request<T>(op: OperationSpec, params: RequestParams = {}, options: RequestOptions = {}): Promise<WithResponse<T>> {
    const url = this.url(op, params);
    const call = deadline(`${op.method} ${redact(url)}`, options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.signal);
    try {
      return await this.attempts<T>(op, url, params, options, call.signal);
    } catch (err) {
      throw call.failure() ?? err;
    } finally {
      call.dispose();
    }
  }

  private async attempts<T>(op: OperationSpec, url: URL, params: RequestParams, options: RequestOptions, signal: AbortSignal): Promise<WithResponse<T>> {
    const retry = { ...DEFAULT_RETRY, ...this.options.retry, ...options.retry };
    const hasBody = params.body !== undefined;
    // One key for every attempt of this call: a retry after a lost answer is answered, not run again.
    const idempotencyKey = op.idempotent ? (options.idempotencyKey ?? globalThis.crypto.randomUUID()) : undefined;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchImpl(url, {
          method: op.method,
          headers: {
            ...this.baseHeaders(op),
            ...options.headers,
            accept: op.accept,
            ...(hasBody ? { 'content-type': 'application/json' } : {}),
            ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
          },
          body: hasBody ? encodeBody(params.body) : undefined,
          signal,
        });
      } catch (err) {
        if (signal.aborted) throw err;
        // A refused connection sent nothing, so even a POST is safe to send again; so is one with an Idempotency-Key.
        const wait = op.method === 'GET' || op.method === 'PUT' || op.method === 'DELETE' || idempotencyKey !== undefined || isRefused(err) ? retryDelayMs(retry, attempt, null) : null;
        if (wait === null) throw new ConnectionError(`${op.method} ${redact(url)}: ${describeFailure(err)}`, redact(url), err);
        await sleep(wait, signal);
        continue;
      }
      const meta: ResponseMeta = { status: res.status, headers: res.headers, requestId: res.headers.get('x-request-id'), rateLimit: rateLimitOf(res.headers) };
      this.options.onResponse?.({ ...meta, method: op.method, path: op.path });
      const { body, json } = await readBody(res);
      const retryAfter = retryAfterSeconds(res.headers);
      const details: ApiErrorDetails = { status: res.status, body: body as never, method: op.method, url: redact(url), requestId: meta.requestId, rateLimit: meta.rateLimit, retryAfterSeconds: retryAfter };
      const expectsJson = /json/.test(op.accept);
      if (res.ok && (json || !expectsJson || body === undefined)) return attachResponse(body as T, meta);
      const wait = !res.ok && RETRIED_STATUSES.has(res.status) ? retryDelayMs(retry, attempt, retryAfter) : null;
      if (wait !== null) {
        await sleep(wait, signal);
        continue;
      }
      if (expectsJson && !json && res.status < 500) throw new UnexpectedResponseError(details, res.headers.get('content-type'), this.hint(res.status));
      if (!json && res.status >= 500) throw new ServerError(details);
      throw apiErrorFor(details);
    }
  }

  /** What to check when an answer is not the API's: the usual cause is a base URL without its `/v2`. */
  private hint(status: number): string {
    const path = new URL(this.baseUrl).pathname;
    if (!/\/v2$/.test(path)) return ` (is /v2 missing from the base URL ${this.baseUrl}?)`;
    return status === 404 ? ` (is ${this.baseUrl} the Wellstream API?)` : '';
  }
}

/** Browsers do not let a page set User-Agent; Node does, and the platform's logs then name the SDK and its version. */
const nodeVersion = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
const USER_AGENT: Record<string, string> = nodeVersion ? { 'user-agent': `wellstream-sdk-js/${SDK_VERSION} node/${nodeVersion}` } : {};

/** The base URL without trailing slashes, refused (before anything is sent) when it cannot be one. */
function checkedBaseUrl(value: string): string {
  const example = 'http://127.0.0.1:8080/v2';
  if (!value) throw new ParameterError(`baseUrl is required, e.g. ${example}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ParameterError(`baseUrl "${value}" is not a URL: write it with its scheme, e.g. ${example}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ParameterError(`baseUrl "${value}" must start with http:// or https://, e.g. ${example}`);
  if (url.search || url.hash) throw new ParameterError(`baseUrl "${value}" must not have a query or fragment (the token goes in { token })`);
  if (url.pathname === '/') throw new ParameterError(`baseUrl "${value}" has no path: the API is under /v2, e.g. ${url.origin}/v2`);
  return value.replace(/\/+$/, '');
}

/** The answer's body: parsed when it is JSON (`json` true), else its text. */
async function readBody(res: Response): Promise<{ body: unknown; json: boolean }> {
  const text = await res.text();
  if (!text) return { body: undefined, json: false };
  if (!/json/.test(res.headers.get('content-type') ?? '')) return { body: text, json: false };
  try {
    return { body: JSON.parse(text), json: true };
  } catch {
    return { body: text, json: false };
  }
}

/** The URL without its token, for messages and errors that end up in logs. */
export function redact(url: URL): string {
  const copy = new URL(url);
  if (copy.searchParams.has('token')) copy.searchParams.set('token', '***');
  return copy.toString();
}

function causeCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: string; errors?: { code?: string }[] } })?.cause;
  return cause?.code ?? cause?.errors?.[0]?.code;
}

const isRefused = (err: unknown) => causeCode(err) === 'ECONNREFUSED';

export function describeFailure(err: unknown): string {
  const code = causeCode(err);
  const cause = (err as { cause?: { message?: string } })?.cause?.message;
  const message = String((err as Error)?.message ?? err);
  return code ? `${code} (${message})` : cause ? `${message} (${cause})` : message;
}
