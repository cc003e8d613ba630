/**
 * One call's deadline and cancellation: a timer for the call's timeout (the retries and the body
 * included) joined with the caller's signal, and the typed error either ends in. A caller's
 * `AbortSignal.timeout()` counts as a timeout, any other abort as an abort.
 */
import { AbortedError, TimeoutError } from './errors';

export interface Deadline {
  /** Aborts when the timeout passes or the caller's signal aborts. */
  signal: AbortSignal;
  /** The typed error for the abort that happened, or undefined while none has. */
  failure(): TimeoutError | AbortedError | undefined;
  dispose(): void;
}

export function deadline(description: string, timeoutMs: number, callerSignal: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const timer =
    Number.isFinite(timeoutMs) && timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs)
      : undefined;
  const onAbort = () => controller.abort();
  if (callerSignal?.aborted) controller.abort();
  else callerSignal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    failure() {
      if (timedOut) return new TimeoutError(`${description} got no answer within ${timeoutMs} ms`, timeoutMs);
      if (!callerSignal?.aborted) return undefined;
      const reason = callerSignal.reason as { name?: string } | undefined;
      if (reason?.name === 'TimeoutError') return new TimeoutError(`${description} got no answer before the caller's signal timed out`, undefined, reason);
      return new AbortedError(`${description} was aborted`, reason);
    },
    dispose() {
      if (timer) clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
    },
  };
}
