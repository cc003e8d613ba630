/**
 * When a request that failed on one gateway may go to another. The body is held (request-body.ts),
 * so it can always be sent again; the question is whether the first gateway may already have acted
 * on it. Sent again when nothing reached a gateway (the connection was refused, reset or timed out
 * before it was made), when a reused keep-alive connection was closed before any answer byte (the
 * gateway closed it while idle, the race every HTTP client retries: Node's `reusedSocket`), or
 * when the method is idempotent (RFC 9110 9.2.2: repeating it changes nothing more).
 * Otherwise (a POST sent on a new connection, then a reset with no answer) the caller gets 503 with
 * Retry-After, as the gateway answers when a service fails the same way: the caller decides (the
 * platform's ingestion is idempotent by `log_id`; creating a customer is not).
 */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);

export interface FailedAttempt {
  method: string;
  /** The TCP connection to the gateway had been made (false: refused, unreachable, connect timeout). */
  connected: boolean;
  /** The request went over a keep-alive connection that an earlier request had used. */
  reusedSocket: boolean;
  /** Any byte of the answer had arrived. */
  answered: boolean;
}

export function mayRetryElsewhere(a: FailedAttempt): boolean {
  if (a.answered) return false;
  return !a.connected || a.reusedSocket || IDEMPOTENT.has(a.method.toUpperCase());
}
