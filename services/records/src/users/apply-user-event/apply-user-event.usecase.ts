/**
 * Keeps the user projection current from userEventsTopic snapshots.
 */
import type { UserEvent } from '@wellstream/contracts';
import type { UserProjectionRepository } from '../user-projection.repository';

export interface ApplyUserEventDeps {
  users: UserProjectionRepository;
}

export async function applyUserEvent(deps: ApplyUserEventDeps, event: UserEvent): Promise<void> {
  await deps.users.apply(event.user);
}
