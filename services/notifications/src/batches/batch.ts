/**
 * A notification batch: records of one organization POSTed together, with every delivery attempt.
 *
 * Internal state is PENDING (attempts remain), SUCCESS or FAILURE. The interface has only SUCCESS and
 * FAILURE, so views show FAILURE for a batch that has not succeeded yet, and `next_attempt_at` tells
 * whether another try is scheduled (null = final). See the README.
 */
/** Batches (with their records) are kept as long as the event log keeps events: 30 days. */
export const BATCH_RETENTION_MS = 30 * 24 * 3600 * 1000;

export type BatchState = 'PENDING' | 'SUCCESS' | 'FAILURE';
export type PublicStatus = 'SUCCESS' | 'FAILURE';

export interface Attempt {
  transmitted_at: string;
  /** code 0 when no response was received (refused, timeout, DNS, refused address, no target). */
  response: { code: number; body: string };
}

export interface Batch {
  _id: string;
  organization_id: string;
  /** Formation order within the organization (first attempts follow it). */
  seq: number;
  state: BatchState;
  items: Record<string, unknown>[];
  /** The pending items (event ids) the batch was formed from: lets a re-run after a crash clean up. */
  item_ids: string[];
  created_at: string;
  created_ms: number;
  attempts: Attempt[];
  attempt_count: number;
  first_attempt_ms: number | null;
  last_attempt_ms: number | null;
  /** First attempt time, or the creation time until the first attempt: what lists sort and filter on. */
  list_ms: number;
  /** Delivery rounds: 1 at formation, +1 per redelivery request. */
  round: number;
  /** Tries made in the current round (the retry schedule counts these). */
  round_attempts: number;
  /** When the next try is due; null once SUCCESS or FAILURE. */
  next_attempt_ms: number | null;
  /** A replica holding an unexpired lease is sending; nobody else may. */
  lease_until_ms: number;
  lease_owner: string | null;
  /** Delivery claims taken so far (absent: none); the next claim is keyed by it (delivery-claims.ts). */
  claims_taken?: number;
  /** Items taken out because their user was deleted or erased (absent: none). */
  withheld_items?: number;
}

/** A batch as formation stores it: pending, its first try due at once, nobody holding it. */
export function newBatch(p: { id: string; organizationId: string; seq: number; items: Record<string, unknown>[]; itemIds: string[]; now: number }): Batch {
  return {
    _id: p.id,
    organization_id: p.organizationId,
    seq: p.seq,
    state: 'PENDING',
    items: p.items,
    item_ids: p.itemIds,
    created_at: new Date(p.now).toISOString(),
    created_ms: p.now,
    attempts: [],
    attempt_count: 0,
    first_attempt_ms: null,
    last_attempt_ms: null,
    list_ms: p.now,
    round: 1,
    round_attempts: 0,
    next_attempt_ms: p.now,
    lease_until_ms: 0,
    lease_owner: null,
  };
}

export const publicStatus = (b: Batch): PublicStatus => (b.state === 'SUCCESS' ? 'SUCCESS' : 'FAILURE');

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export interface BatchSummaryView {
  id: string;
  status: PublicStatus;
  attempts: { first_at: string | null; last_at: string | null; count: number };
  next_attempt_at: string | null;
  item_count: number;
  created_at: string;
}

export interface BatchDetailView {
  id: string;
  status: PublicStatus;
  attempts: { start_at: string | null; last_at: string | null; details: Attempt[] };
  next_attempt_at: string | null;
  created_at: string;
  items: Record<string, unknown>[];
  /** How many items were taken out because their user is gone (deleted or erased); only when some were. */
  withheld_items?: number;
}

export function toSummaryView(b: Batch): BatchSummaryView {
  return {
    id: b._id,
    status: publicStatus(b),
    attempts: { first_at: iso(b.first_attempt_ms), last_at: iso(b.last_attempt_ms), count: b.attempt_count },
    next_attempt_at: iso(b.next_attempt_ms),
    item_count: b.items.length,
    created_at: b.created_at,
  };
}

export function toDetailView(b: Batch): BatchDetailView {
  return {
    id: b._id,
    status: publicStatus(b),
    attempts: { start_at: iso(b.first_attempt_ms), last_at: iso(b.last_attempt_ms), details: b.attempts },
    next_attempt_at: iso(b.next_attempt_ms),
    created_at: b.created_at,
    items: b.items,
    ...(b.withheld_items ? { withheld_items: b.withheld_items } : {}),
  };
}

/**
 * When the next try of a round is due after a failed one, or null when the round is exhausted
 * (N delays = N + 1 tries). Jitter spreads retries of many batches that failed together.
 */
export function nextAttemptAfterFailure(
  roundAttempts: number,
  now: number,
  schedule: { retryDelaysMs: number[]; jitter: number },
  random: () => number = Math.random,
): number | null {
  if (roundAttempts > schedule.retryDelaysMs.length) return null;
  const delay = schedule.retryDelaysMs[roundAttempts - 1];
  return now + Math.max(0, Math.round(delay * (1 + schedule.jitter * (2 * random() - 1))));
}

/** Response bodies are kept short: enough to diagnose, not a copy of the receiver's page. */
export const RESPONSE_BODY_LIMIT = 2048;
