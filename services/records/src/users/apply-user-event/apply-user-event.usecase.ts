/**
 * Keeps the user projection current from userEventsTopic snapshots and tells interested parties
 * (the demo source) about the user's new state.
 */
import type { UserEvent } from '@wellstream/contracts';
import type { ProjectedUser } from '../user-projection';
import type { UserProjectionRepository } from '../user-projection.repository';

export interface ApplyUserEventDeps {
  users: UserProjectionRepository;
  onUserChanged: (user: ProjectedUser) => void;
}

export async function applyUserEvent(deps: ApplyUserEventDeps, event: UserEvent): Promise<void> {
  const projected = await deps.users.apply(event.user);
  if (projected) deps.onUserChanged(projected);
}
