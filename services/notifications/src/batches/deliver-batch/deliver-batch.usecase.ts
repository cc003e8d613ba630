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

export interface DeliverBatchDeps {
  targets: TargetRepository;
  batches: BatchRepository;
  sender: PushSender;
  settings: { retryDelaysMs: number[]; jitter: number };
  logger: Logger;
  owner: string;
  clock: Clock;
}

export type DeliveryOutcome = 'success' | 'retry' | 'failure' | 'interrupted';

export const USER_AGENT = 'Wellstream-Push/1.0';

export function pushHeaders(batchId: string, timestampSeconds: number, body: string, secret: string | null): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-wellstream-batch-id': batchId,
    'x-wellstream-timestamp': String(timestampSeconds),
  };
  if (secret) headers['x-wellstream-signature'] = signPush(secret, timestampSeconds, body);
  return headers;
}

export async function deliverBatch(deps: DeliverBatchDeps, batch: Batch, signal?: AbortSignal): Promise<DeliveryOutcome> {
  const now = () => deps.clock.now().getTime();
  const target = await deps.targets.get(batch.organization_id);
  const body = JSON.stringify({ id: batch._id, items: batch.items });
  const startedMs = now();
  let response: PushResponse;
  if (!target) response = { code: 0, body: 'no notification target is configured for the organization' };
  else {
    const headers = pushHeaders(batch._id, Math.floor(startedMs / 1000), body, target.secret);
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
