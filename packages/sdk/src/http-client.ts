/**
 * Sends one operation: fills the path template, adds the token, retries 429/503 and connection
 * failures per the retry policy, and turns any other non-2xx answer into a typed ApiError. Uses
 * only fetch, URL and Headers, so it runs unchanged in Node.js 20+ and browsers.
 */
import { apiErrorFor, ConnectionError, ParameterError } from './errors';
import { attachResponse, rateLimitOf, ResponseMeta, retryAfterSeconds, WithResponse } from './rate-limit';
import { DEFAULT_RETRY, RETRIED_STATUSES, retryDelayMs, RetryOptions, sleep } from './retry-policy';

export interface OperationSpec {
  method: string;
  path: string;
  /** Whether the developer token goes with the call (marketplace pages and mobile ingestion take none). */
  developerToken: boolean;
  /** The media type asked for (the marketplace answers HTML or JSON by Accept). */
  accept: string;
}

export interface RequestParams {
  path?: Record<string, string | number | undefined> | undefined;
  query?: Record<string, unknown> | undefined;
  body?: unknown;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Overrides the client's retry settings for this call. */
  retry?: RetryOptions;
  /** Request headers an operation needs besides the SDK's own (FHIR's `Prefer: respond-async`). */
  headers?: Record<string, string>;
}

export interface HttpClientOptions {
  /** base_url, e.g. http://127.0.0.1:8080/v2 */
  baseUrl: string;
  /** The developer token (or the admin token for the operator API). */
  token?: string;
  retry?: RetryOptions;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
  /** Called with every answer, retried ones included (logging, metrics, the latest rate limit). */
  onResponse?: (meta: ResponseMeta & { method: string; path: string }) => void;
}

export class HttpClient {
  readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: HttpClientOptions) {
    if (!options.baseUrl) throw new ParameterError('baseUrl is required, e.g. http://127.0.0.1:8080/v2');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
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
      url.searchParams.set(k, Array.isArray(v) ? v.join(',') : String(v));
    }
    if (op.developerToken) {
      if (!this.options.token) throw new ParameterError(`${op.method} ${op.path} needs a token: pass { token } to the client`);
      url.searchParams.set('token', this.options.token);
    }
    return url;
  }

  async request<T>(op: OperationSpec, params: RequestParams = {}, options: RequestOptions = {}): Promise<WithResponse<T>> {
    const url = this.url(op, params);
    const retry = { ...DEFAULT_RETRY, ...this.options.retry, ...options.retry };
    const hasBody = params.body !== undefined;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetchImpl(url, {
          method: op.method,
          headers: { ...options.headers, accept: op.accept, ...(hasBody ? { 'content-type': 'application/json' } : {}) },
          body: hasBody ? JSON.stringify(params.body) : undefined,
          signal: options.signal,
        });
      } catch (err) {
        if (options.signal?.aborted) throw err;
        // A refused connection sent nothing, so even a POST is safe to send again.
        const wait = op.method === 'GET' || op.method === 'PUT' || op.method === 'DELETE' || isRefused(err) ? retryDelayMs(retry, attempt, null) : null;
        if (wait === null) throw new ConnectionError(`${op.method} ${redact(url)}: ${describeFailure(err)}`, redact(url), err);
        await sleep(wait, options.signal);
        continue;
      }
      const meta: ResponseMeta = { status: res.status, headers: res.headers, requestId: res.headers.get('x-request-id'), rateLimit: rateLimitOf(res.headers) };
      this.options.onResponse?.({ ...meta, method: op.method, path: op.path });
      const body = await readBody(res);
      if (res.ok) return attachResponse(body as T, meta);
      const retryAfter = retryAfterSeconds(res.headers);
      const wait = RETRIED_STATUSES.has(res.status) ? retryDelayMs(retry, attempt, retryAfter) : null;
      if (wait === null) {
        throw apiErrorFor({ status: res.status, body: body as never, method: op.method, url: redact(url), requestId: meta.requestId, rateLimit: meta.rateLimit, retryAfterSeconds: retryAfter });
      }
      await sleep(wait, options.signal);
    }
  }
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  if (!/json/.test(res.headers.get('content-type') ?? '')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
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
