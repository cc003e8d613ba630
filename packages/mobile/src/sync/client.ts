/**
 * The two calls the SDK makes, with the user's mobile token: `POST /v2/mobile/records` and
 * `POST /v2/mobile/sources/<type>/connect`. 429 and 503 are retried after their `Retry-After`
 * (seconds or an HTTP date), a network failure after an exponential backoff; 401 and a
 * disconnected source stop at once.
 */
import { SourceDisconnectedError, UnauthorizedError, UnavailableError, WellstreamMobileError } from './errors';
import type { FetchLike } from './ports';

export interface ClientOptions {
  baseUrl: string;
  fetch: FetchLike;
  /** Tries per request before the sync gives up for now (the queue is kept). */
  maxAttempts: number;
  /** First backoff after a network failure; doubles per try. */
  backoffMs: number;
  /** Longest wait honoured for one Retry-After. */
  maxRetryAfterMs: number;
  sleep: (ms: number) => Promise<void>;
}

export type PostResult = { ok: true; requests: number } | { ok: false; rejected: number[]; requests: number };

export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export class MobileClient {
  constructor(private readonly o: ClientOptions) {}

  private url(path: string, token: string): string {
    return `${this.o.baseUrl.replace(/\/+$/, '')}${path}?token=${encodeURIComponent(token)}`;
  }

  /**
   * Posts one batch, its records given as JSON text (`[...]`, as the queue holds them: never parsed
   * to be sent); answers the indexes of records the platform rejected (400) so the caller can drop them.
   */
  async postRecords(token: string, recordsJson: string, count: number, source: string): Promise<PostResult> {
    const res = await this.send('/mobile/records', token, `{"records":${recordsJson}}`);
    if (res.status === 200) return { ok: true, requests: res.requests };
    const text = res.body;
    if (res.status === 422 && text.includes('disconnected')) throw new SourceDisconnectedError(source);
    if (res.status === 400) {
      const errors = (safeJson(text) as { errors?: Record<string, unknown> } | undefined)?.errors ?? {};
      const rejected = [...new Set(Object.keys(errors).flatMap((k) => (/^records\[(\d+)\]/.exec(k) ? [Number(/^records\[(\d+)\]/.exec(k)![1])] : [])))];
      return { ok: false, rejected: rejected.length ? rejected : Array.from({ length: count }, (_, i) => i), requests: res.requests };
    }
    throw new WellstreamMobileError('rejected', `POST /mobile/records answered ${res.status}: ${text.slice(0, 200)}`);
  }

  /** Tells the platform the user connected this phone source; answers false when the platform has no such endpoint yet (404). */
  async connectSource(token: string, source: string): Promise<{ available: boolean; body: unknown }> {
    const res = await this.send(`/mobile/sources/${source}/connect`, token, '{}');
    if (res.status === 404) return { available: false, body: undefined };
    if (res.status >= 200 && res.status < 300) return { available: true, body: safeJson(res.body) };
    throw new WellstreamMobileError('rejected', `connect ${source} answered ${res.status}`);
  }

  private async send(path: string, token: string, body: string): Promise<{ status: number; body: string; requests: number }> {
    let lastProblem = '';
    for (let attempt = 1; attempt <= this.o.maxAttempts; attempt++) {
      let wait: number;
      try {
        const res = await this.o.fetch(this.url(path, token), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        if (res.status === 401) throw new UnauthorizedError();
        if (res.status !== 429 && res.status !== 503) return { status: res.status, body: await res.text(), requests: attempt };
        await res.text();
        lastProblem = String(res.status);
        wait = Math.min(retryAfterMs(res.headers.get('retry-after')) ?? this.o.backoffMs * 2 ** (attempt - 1), this.o.maxRetryAfterMs);
      } catch (error) {
        if (error instanceof WellstreamMobileError) throw error;
        lastProblem = (error as Error).message;
        wait = this.o.backoffMs * 2 ** (attempt - 1);
      }
      if (attempt < this.o.maxAttempts) await this.o.sleep(wait);
    }
    throw new UnavailableError(lastProblem);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
