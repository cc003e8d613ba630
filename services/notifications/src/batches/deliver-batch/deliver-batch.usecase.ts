/**
 * One delivery try of a batch the caller has claimed: POST {"id","items"} to the organization's
 * current target (so a fixed URL helps pending retries), signed when a secret is set, and record
 * the outcome. Any 2xx is success, recorded before anything else happens to the batch.
 */
import type { Logger } from '@wellstream/logging';
import type { TargetRepository } from '../../targets/target.repository';
import { signPush } from '../../delivery/push-signature';
import type { PushResponse, PushSender } from '../../delivery/push-sender';
import { Batch, nextAttemptAfterFailure } from '../batch';
import type { BatchRepository } from '../batch.repository';
import type { Clock } from '@wellstream/clock';
import { GoneUsersSource, withholdFromBatch } from '../../withheld/withhold-gone';
import type { WithheldItemRepository } from '../../withheld/withheld-item.repository';
import type { PendingItemRepository } from '../pending-item.repository';

export interface DeliverBatchDeps {
  targets: TargetRepository;
  batches: BatchRepository;
  sender: PushSender;
  settings: { retryDelaysMs: number[]; jitter: number };
  logger: Logger;
  owner: string;
  clock: Clock;
  /** Deleted and erased users: their items are taken out before a try (withhold-gone.ts). */
  gone: GoneUsersSource;
  pendingItems: PendingItemRepository;
  withheld: WithheldItemRepository;
}

/** `withheld`: every item was a gone user's, and the batch went. */
export type DeliveryOutcome = 'success' | 'retry' | 'failure' | 'interrupted' | 'withheld';

/** Says how many items of gone users were taken out of a batch (the body stays {"id","items"}). */
export const WITHHELD_ITEMS_HEADER = 'x-wellstream-withheld-items';

export const USER_AGENT = 'Wellstream-Push/1.0';

export function pushHeaders(batchId: string, timestampSeconds: number, body: string, secret: string | null, withheld = 0): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-wellstream-batch-id': batchId,
    'x-wellstream-timestamp': String(timestampSeconds),
  };
  if (withheld > 0) headers[WITHHELD_ITEMS_HEADER] = String(withheld);
  if (secret) headers['x-wellstream-signature'] = signPush(secret, timestampSeconds, body);
  return headers;
}

export async function deliverBatch(deps: DeliverBatchDeps, claimed: Batch, signal?: AbortSignal): Promise<DeliveryOutcome> {
  const now = () => deps.clock.now().getTime();
  // Asked at every try: a user deleted while the batch waited or was retried is not sent.
  const batch = await withholdFromBatch({ ...deps, pending: deps.pendingItems }, claimed, await deps.gone.forOrganization(claimed.organization_id));
  if (!batch) {
    deps.logger.info('batch withheld: every item was a deleted user\'s', { batch_id: claimed._id, organization_id: claimed.organization_id });
    return 'withheld';
  }
  const target = await deps.targets.get(batch.organization_id);
  const body = JSON.stringify({ id: batch._id, items: batch.items });
  const startedMs = now();
  let response: PushResponse;
  if (!target) response = { code: 0, body: 'no notification target is configured for the organization' };
  else {
    const headers = pushHeaders(batch._id, Math.floor(startedMs / 1000), body, target.secret, batch.withheld_items);
    response = await deps.sender.send({ url: target.url, headers, body }, signal);
  }
  if (signal?.aborted) {
    // Shutdown cut the try short: give the claim back unrecorded; the next start tries again.
    await deps.batches.release(batch._id, deps.owner);
    return 'interrupted';
  }
  const succeeded = response.code >= 200 && response.code < 300;
  const recorded = await deps.batches.recordAttempt(
    batch._id,
    { transmitted_at: new Date(startedMs).toISOString(), response },
    succeeded,
    startedMs,
    (roundAttempts) => nextAttemptAfterFailure(roundAttempts, now(), deps.settings),
  );
  const outcome: DeliveryOutcome = succeeded ? 'success' : recorded?.state === 'FAILURE' ? 'failure' : 'retry';
  deps.logger.info('batch delivery attempt', {
    batch_id: batch._id,
    organization_id: batch.organization_id,
    code: response.code,
    outcome,
    next_attempt_ms: recorded?.next_attempt_ms ?? null,
  });
  return outcome;
}
