/**
 * ProviderHttp over Node's fetch: every call has a deadline, a network failure or timeout becomes
 * ProviderError('temporary'), and every HTTP status is handed back for the adapter to read.
 */
import { ProviderError, ProviderHttp, ProviderRequest, ProviderResponse } from '../providers/provider.port';

export function fetchProviderHttp(options: { timeoutMs: number; userAgent?: string } = { timeoutMs: 15_000 }): ProviderHttp {
  return {
    async send(request: ProviderRequest): Promise<ProviderResponse> {
      const headers: Record<string, string> = { accept: 'application/json', 'user-agent': options.userAgent ?? 'Wellstream/1.0', ...request.headers };
      let body: string | undefined;
      if (request.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(request.form).toString();
      } else if (request.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(request.json);
      }
      try {
        const res = await fetch(request.url, { method: request.method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
        const out: Record<string, string> = {};
        res.headers.forEach((v, k) => (out[k.toLowerCase()] = v));
        return { status: res.status, headers: out, body: await res.text() };
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new ProviderError('temporary', `${request.method} ${new URL(request.url).origin}${new URL(request.url).pathname} failed: ${reason}`);
      }
    },
  };
}
