/**
 * One batch of the organization with every attempt and its items; another organization's batch
 * is "not found", like an unknown id.
 */
import { toDetailView, BatchDetailView } from '../batch';
import { batchNotFound } from '../batch.errors';
import type { BatchRepository } from '../batch.repository';

export async function getBatch(deps: { batches: BatchRepository }, organizationId: string, id: string): Promise<BatchDetailView> {
  const batch = await deps.batches.inOrganization(organizationId, id);
  if (!batch) throw batchNotFound(id);
  return toDetailView(batch);
}
