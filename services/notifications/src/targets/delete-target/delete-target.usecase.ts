/**
 * Removes an organization's notification target. Records still gathering (not yet in a batch) are
 * dropped with it; batches already formed keep their retry schedule and fail their attempts
 * (code 0) unless a target is configured again before their last try.
 */
import { targetNotFound } from '../target.errors';
import type { TargetRepository } from '../target.repository';
import { toTargetView, TargetView } from '../target';

export async function deleteTarget(
  deps: { targets: TargetRepository; dropPendingItems(organizationId: string): Promise<number> },
  organizationId: string,
): Promise<TargetView> {
  const target = await deps.targets.get(organizationId);
  if (!target) throw targetNotFound();
  await deps.targets.delete(organizationId);
  await deps.dropPendingItems(organizationId);
  return toTargetView(target);
}
