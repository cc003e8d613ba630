/**
 * One batch of the organization with every attempt and its items; another organization's batch
 * is "not found", like an unknown id. Items of users deleted or erased are not shown (counted in
 * `withheld_items`), and a batch that carried only theirs is not found.
 */
import { toDetailView, BatchDetailView } from '../batch';
import { batchNotFound } from '../batch.errors';
import type { BatchRepository } from '../batch.repository';
import { GoneUsersSource, visibleBatch } from '../../withheld/withhold-gone';

export async function getBatch(deps: { batches: BatchRepository; gone: GoneUsersSource }, organizationId: string, id: string): Promise<BatchDetailView> {
  const stored = await deps.batches.inOrganization(organizationId, id);
  const batch = stored && visibleBatch(stored, await deps.gone.forOrganization(organizationId, true));
  if (!batch) throw batchNotFound(id);
  return toDetailView(batch);
}
