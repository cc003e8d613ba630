/**
 * A small HTTP client for tests: JSON in and out, the token as a query parameter, and fixtures
 * for the operator API (customer → organization → developer token).
 */
import { assertConformsToOpenApi } from './openapi-conformance';
import { TEST_ADMIN_TOKEN } from './test-tokens';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly token?: string,
  ) {}

  withToken(token: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  async request<T = any>(method: string, path: string, body?: unknown, init: { headers?: Record<string, string>; rawBody?: string } = {}): Promise<ApiResponse<T>> {
    const url = new URL(this.baseUrl + path);
    if (this.token && !url.searchParams.has('token')) url.searchParams.set('token', this.token);
    const res = await fetch(url, {
      method,
      headers: { ...(body !== undefined || init.rawBody ? { 'content-type': 'application/json' } : {}), ...init.headers },
      body: init.rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: keep the text */
    }
    // Every answer must be one the published document allows (see openapi-conformance.ts).
    const documentBase = /^(.*?\/v2)(?:\/|$)/.exec(this.baseUrl)?.[1];
    if (documentBase) {
      await assertConformsToOpenApi(documentBase, { method, url, status: res.status, contentType: res.headers.get('content-type'), body: parsed, text });
    }
    return { status: res.status, body: parsed as T, headers: res.headers, text };
  }

  get = <T = any>(path: string, init?: { headers?: Record<string, string> }) => this.request<T>('GET', path, undefined, init);
  post = <T = any>(path: string, body?: unknown) => this.request<T>('POST', path, body ?? {});
  put = <T = any>(path: string, body?: unknown) => this.request<T>('PUT', path, body ?? {});
  patch = <T = any>(path: string, body?: unknown) => this.request<T>('PATCH', path, body ?? {});
  delete = <T = any>(path: string) => this.request<T>('DELETE', path);
}

export interface Tenant {
  customerId: string;
  organizationId: string;
  token: string;
  /** Client authenticated with the developer token. */
  api: ApiClient;
}

/** Creates a customer with one organization and a developer token through the operator API. */
export async function createTenant(baseUrl: string, options: { rateLimitPerHour?: number; name?: string } = {}): Promise<Tenant> {
  const admin = new ApiClient(baseUrl, TEST_ADMIN_TOKEN);
  const c = await admin.post('/admin/customers', { name: options.name ?? 'Test customer' });
  if (c.status !== 201) throw new Error(`create customer: ${c.status} ${c.text}`);
  const o = await admin.post(`/admin/customers/${c.body.id}/organizations`, { name: 'Test org' });
  if (o.status !== 201) throw new Error(`create organization: ${o.status} ${o.text}`);
  const t = await admin.post(`/admin/customers/${c.body.id}/tokens`, options.rateLimitPerHour ? { rate_limit_per_hour: options.rateLimitPerHour } : {});
  if (t.status !== 201) throw new Error(`create token: ${t.status} ${t.text}`);
  return { customerId: c.body.id, organizationId: o.body.id, token: t.body.token, api: new ApiClient(baseUrl, t.body.token) };
}

/** Polls `fn` until it returns a truthy value or `timeoutMs` passes (for asynchronous effects). */
export async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
