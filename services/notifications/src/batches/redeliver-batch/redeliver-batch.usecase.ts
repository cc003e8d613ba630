/**
 * Queues a new round of tries for a batch (our addition to the interface): the same retry schedule again,
 * starting now, every try recorded after the earlier ones. Works on any batch, a successful one
 * included (the customer asks for it); refused while a try is in flight.
 */
import { toDetailView, BatchDetailView } from '../batch';
import { batchInFlight, batchNotFound } from '../batch.errors';
import type { BatchRepository } from '../batch.repository';
import type { Clock } from '@wellstream/clock';
import { GoneUsersSource, visibleBatch } from '../../withheld/withhold-gone';

export async function redeliverBatch(
  deps: { batches: BatchRepository; wake(): void; clock: Clock; gone: GoneUsersSource },
  organizationId: string,
  id: string,
): Promise<BatchDetailView> {
  const now = deps.clock.now().getTime();
  // A gone user's items are not sent again: the try takes them out (deliver-batch), and a batch
  // that carried only theirs is not found.
  const gone = await deps.gone.forOrganization(organizationId, true);
  const existing = await deps.batches.inOrganization(organizationId, id);
  if (!existing || !visibleBatch(existing, gone)) throw batchNotFound(id);
  const queued = await deps.batches.requeue(organizationId, id, now);
  if (!queued) throw batchInFlight(id);
  deps.wake();
  return toDetailView(visibleBatch(queued, gone) ?? queued);
}
