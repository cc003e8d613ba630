/**
 * POSTs each event to a local URL, signed like push (X-Wellstream-Timestamp and
 * X-Wellstream-Signature over "<timestamp>.<raw body>", so a receiver verifies it with the SDK's
 * verifyPushSignature), with the event's type and id in headers. A refused connection or a non-2xx
 * answer is retried a few times, since a local server under development restarts often.
 */
import { signPushPayload, WellstreamEvent } from '@wellstream/sdk';

export interface ForwardOutcome {
  ok: boolean;
  /** HTTP status of the last try; 0 when nothing answered. */
  status: number;
  attempts: number;
  ms: number;
  error?: string;
}

export interface ForwarderOptions {
  url: string;
  secret: string;
  /** Tries per event. Default 3. */
  attempts?: number;
  retryDelayMs?: number;
  signal?: AbortSignal;
}

export async function forwardEvent(event: WellstreamEvent, options: ForwarderOptions): Promise<ForwardOutcome> {
  const body = JSON.stringify({ id: event.id ?? null, type: event.type, data: event.data });
  const started = Date.now();
  const tries = options.attempts ?? 3;
  let last: ForwardOutcome = { ok: false, status: 0, attempts: 0, ms: 0 };
  for (let attempt = 1; attempt <= tries; attempt++) {
    try {
      const res = await fetch(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'wellstream-cli',
          'x-wellstream-event-type': event.type,
          ...(event.id ? { 'x-wellstream-event-id': event.id } : {}),
          ...(await signPushPayload(body, options.secret)),
        },
        body,
        signal: options.signal,
      });
      await res.arrayBuffer().catch(() => undefined);
      last = { ok: res.ok, status: res.status, attempts: attempt, ms: Date.now() - started };
    } catch (err) {
      if (options.signal?.aborted) throw err;
      const cause = (err as { cause?: { code?: string } }).cause;
      last = { ok: false, status: 0, attempts: attempt, ms: Date.now() - started, error: cause?.code ?? (err as Error).message };
    }
    if (last.ok) return last;
    if (attempt < tries) await new Promise((r) => setTimeout(r, (options.retryDelayMs ?? 250) * 2 ** (attempt - 1)));
  }
  return last;
}
