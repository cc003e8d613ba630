/**
 * Sends one batch until the receiver takes it (any 2xx): a local receiver restarts, stops at a
 * breakpoint, answers 500 while being edited; none of that may lose an event. Each try has its
 * own timeout and a fresh signature; waits between tries grow exponentially up to a cap. Only the
 * caller's signal (Ctrl-C) ends it without delivery, and then the caller must not save a position.
 */
import { batchBody, pushHeaders, PushBatch } from './push-batch';
import { PushAnswer, postOnce } from './push-post';

export interface DeliveryOptions {
  url: URL;
  secret: string;
  /** Per try, ms. Default 10 000. */
  timeoutMs?: number;
  /** First wait after a failed try, ms; doubles up to `maxDelayMs`. Defaults 500 and 10 000. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  signal?: AbortSignal;
  /** Told of every failed try and the wait before the next one. */
  onFailure?: (info: { attempt: number; answer: PushAnswer; delayMs: number }) => void;
}

export interface Delivered {
  answer: PushAnswer;
  attempts: number;
  ms: number;
}

export async function deliverUntilAccepted(batch: PushBatch, options: DeliveryOptions): Promise<Delivered | 'stopped'> {
  const body = batchBody(batch);
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    if (options.signal?.aborted) return 'stopped';
    const headers = await pushHeaders(batch.id, body, options.secret);
    const answer = await postOnce(options.url, headers, body, options.timeoutMs ?? 10_000, options.signal);
    if (answer.status >= 200 && answer.status < 300) return { answer, attempts: attempt, ms: Date.now() - started };
    if (options.signal?.aborted) return 'stopped';
    const delayMs = Math.min(options.maxDelayMs ?? 10_000, (options.baseDelayMs ?? 500) * 2 ** Math.min(attempt - 1, 20));
    options.onFailure?.({ attempt, answer, delayMs });
    if (!(await wait(delayMs, options.signal))) return 'stopped';
  }
}

/** false when the signal ended the wait. */
function wait(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
