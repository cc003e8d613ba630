/**
 * Every answer an HTTP test receives through ApiClient is checked against the platform's own
 * /v2/openapi.json: openapi-backend matches the request to its operation and validates the body
 * with ajv against the schema documented for that status; the status code and the content type
 * must be documented for the operation. A contradiction fails the test that made the request.
 * Requests to paths the document does not describe (deliberately unknown routes) are not checked.
 */
import OpenAPIBackend, { type Document, type Operation } from 'openapi-backend';
import addFormats from 'ajv-formats';

export interface ObservedResponse {
  method: string;
  url: URL;
  status: number;
  contentType: string | null;
  body: unknown;
  text: string;
}

const documents = new Map<string, Promise<OpenApiConformance>>();

export class OpenApiConformance {
  private constructor(
    private readonly api: OpenAPIBackend,
    private readonly apiRoot: string,
  ) {}

  /** One checker per platform (its document is fetched once). */
  static for(baseUrl: string): Promise<OpenApiConformance> {
    let c = documents.get(baseUrl);
    if (!c) {
      c = OpenApiConformance.load(baseUrl);
      documents.set(baseUrl, c);
      c.catch(() => documents.delete(baseUrl));
    }
    return c;
  }

  private static async load(baseUrl: string): Promise<OpenApiConformance> {
    const res = await fetch(`${baseUrl}/openapi.json`);
    if (res.status !== 200) throw new Error(`GET ${baseUrl}/openapi.json answered ${res.status}`);
    const definition = (await res.json()) as Document;
    const apiRoot = new URL(baseUrl).pathname.replace(/\/+$/, '');
    const api = new OpenAPIBackend({
      definition,
      apiRoot,
      strict: true,
      // quick: skips openapi-backend's own document check, which knows only OpenAPI 3.0 (the
      // document is checked against the 3.1 schema by test/openapi-document.test.ts), and
      // dereferences synchronously.
      quick: true,
      validate: true,
      ajvOpts: { strict: false, allErrors: true },
      customizeAjv: (ajv) => {
        addFormats(ajv);
        return ajv;
      },
    });
    await api.init();
    return new OpenApiConformance(api, apiRoot);
  }

  operationFor(method: string, url: URL): Operation | undefined {
    const query: Record<string, string> = {};
    url.searchParams.forEach((v, k) => (query[k] = v));
    return this.api.router.matchOperation({ method: method.toLowerCase(), path: url.pathname, headers: {}, query });
  }

  /** What contradicts the document in this answer (empty: it conforms). */
  problems(r: ObservedResponse): string[] {
    const operation = this.operationFor(r.method, r.url);
    if (!operation) return [];
    const where = `${r.method} ${operation.path} (${operation.operationId}) answered ${r.status}`;
    const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
    const documented = responses[String(r.status)] ?? responses[`${String(r.status)[0]}XX`] ?? responses.default;
    if (!documented) return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
    const mediaType = (r.contentType ?? '').split(';')[0].trim().toLowerCase();
    const content = documented.content ?? {};
    if (!mediaType) {
      return r.text.length > 0 ? [`${where}: a body without a content type`] : [];
    }
    if (!(mediaType in content)) return [`${where}: content type ${mediaType} not documented (documented: ${Object.keys(content).join(', ') || 'none'})`];
    if (mediaType !== 'application/json') return [];
    const result = this.api.validator.validateResponse(r.body, operation, r.status);
    if (result.valid) return [];
    return [`${where}: body does not match the documented schema: ${JSON.stringify(result.errors)} body: ${r.text.slice(0, 500)}`];
  }

  get root(): string {
    return this.apiRoot;
  }
}

/** Throws when an answer contradicts the document; ApiClient calls it on every response. */
export async function assertConformsToOpenApi(baseUrl: string, r: ObservedResponse): Promise<void> {
  const checker = await OpenApiConformance.for(baseUrl);
  const problems = checker.problems(r);
  if (problems.length > 0) throw new Error(`The answer contradicts /v2/openapi.json:\n${problems.join('\n')}`);
}
