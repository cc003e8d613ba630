/**
 * Queues a new round of tries for a batch (our addition to the interface): the same retry schedule again,
 * starting now, every try recorded after the earlier ones. Works on any batch, a successful one
 * included (the customer asks for it); refused while a try is in flight.
 */
import { toDetailView, BatchDetailView } from '../batch';
import { batchInFlight, batchNotFound } from '../batch.errors';
import type { BatchRepository } from '../batch.repository';

export async function redeliverBatch(
  deps: { batches: BatchRepository; wake(): void; now?: () => number },
  organizationId: string,
  id: string,
): Promise<BatchDetailView> {
  const now = deps.now?.() ?? Date.now();
  const existing = await deps.batches.inOrganization(organizationId, id);
  if (!existing) throw batchNotFound(id);
  const queued = await deps.batches.requeue(organizationId, id, now);
  if (!queued) throw batchInFlight(id);
  deps.wake();
  return toDetailView(queued);
}
