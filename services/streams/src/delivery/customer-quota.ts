/**
 * Fair shares of the streams service between customers: how many stream connections and how many
 * replays one customer may hold open at once in this process. A replay reads up to 30 days of a
 * customer's events, so a customer opening dozens of them at once would take a large share of the
 * process from everyone else; past the limit the answer is 429 with Retry-After, before the event
 * stream opens. The counts are per process (per streams-service replica).
 */
import { AppError } from '@wellstream/errors';
import { SlotCounts } from './slot-counts';

export type ConnectionKind = 'stream' | 'replay' | 'tail';

export interface QuotaLimits {
  stream: number;
  replay: number;
  /** Read-only tails of streams (they read the customer's slice of the log on their own, like a replay). */
  tail: number;
  /** Retry-After of a refused connection, in seconds. */
  retryAfterSeconds: number;
}

const REFUSAL: Record<ConnectionKind, { code: string; what: string }> = {
  stream: { code: 'TOO_MANY_STREAM_CONNECTIONS', what: 'stream connections' },
  replay: { code: 'TOO_MANY_REPLAYS', what: 'replay connections' },
  tail: { code: 'TOO_MANY_TAILS', what: 'stream tails' },
};

export const tooManyConnections = (kind: ConnectionKind, max: number, retryAfterSeconds: number) =>
  new AppError('rate_limited', REFUSAL[kind].code, `A customer can have at most ${max} ${REFUSAL[kind].what} open at once; retry when one closes.`, { retryAfterSeconds });

export class CustomerQuota {
  private readonly open = new SlotCounts();

  constructor(private readonly limits: QuotaLimits) {}

  /** Takes one slot or throws 429; the returned release is idempotent. */
  acquire(customerId: string, kind: ConnectionKind): () => void {
    const key = `${kind}:${customerId}`;
    if (this.open.count(key) >= this.limits[kind]) throw tooManyConnections(kind, this.limits[kind], this.limits.retryAfterSeconds);
    return this.open.take(key);
  }

  active(customerId: string, kind: ConnectionKind): number {
    return this.open.count(`${kind}:${customerId}`);
  }
}
