/**
 * Applies a `users` topic snapshot: updates the projection, and when the user is suspended or
 * deleted deletes all the user's rules (their state lives on them) and the data points kept for
 * them (interface: "All rules of a user are deleted when the user is suspended").
 */
import type { UserEvent } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import type { DataPointRepository } from '../../data-points/data-point.repository';
import type { RuleRepository } from '../../rules/rule.repository';
import type { UserProjectionRepository } from '../user-projection.repository';

export interface ApplyUserEventDeps {
  users: UserProjectionRepository;
  rules: RuleRepository;
  points: DataPointRepository;
  logger?: Logger;
}

export async function applyUserEvent(deps: ApplyUserEventDeps, event: UserEvent): Promise<{ rulesDeleted: number }> {
  await deps.users.apply(event.user);
  // The snapshot's state decides, not only the event type: a redelivered or compacted history may
  // hold only the newest snapshot of a suspended user.
  const gone =
    event.type === 'user.suspended' ||
    event.type === 'user.deleted' ||
    event.user.status === 'suspended' ||
    event.user.status === 'deleted' ||
    event.user.deleted_at !== null;
  if (!gone) return { rulesDeleted: 0 };
  const rulesDeleted = await deps.rules.deleteForUser(event.user.id);
  await deps.points.deleteForUser(event.user.id);
  if (rulesDeleted > 0) deps.logger?.info('rules of a suspended or deleted user removed', { user_id: event.user.id, rules: rulesDeleted });
  return { rulesDeleted };
}
