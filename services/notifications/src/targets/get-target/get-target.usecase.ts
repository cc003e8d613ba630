/**
 * Reads an organization's notification target (the view: the secret is only `has_secret`).
 */
import { targetNotFound } from '../target.errors';
import type { TargetRepository } from '../target.repository';
import { toTargetView, TargetView } from '../target';

export async function getTarget(deps: { targets: TargetRepository }, organizationId: string): Promise<TargetView> {
  const target = await deps.targets.get(organizationId);
  if (!target) throw targetNotFound();
  return toTargetView(target);
}
