/**
 * Keeps the user projection; a user's deletion ends every connection of theirs (revoked at the
 * provider where there is one, tokens erased, `disconnected` announced). Suspension only pauses syncing (the sync
 * run checks the user), since an unsuspended user's sources should carry on.
 */
import type { UserEvent } from '@wellstream/contracts';
import { connectionId } from '../connections/connection';
import { endConnection, EndConnectionDeps } from '../connections/disconnect.usecase';
import { SOURCE_TYPES } from '@wellstream/catalog';
import { tokenHash, UserProjectionRepository } from './user-projection.repository';

export interface ApplyUserEventDeps extends EndConnectionDeps {
  users: UserProjectionRepository;
  /** Told after every snapshot applied (the demo source starts or stops the user's data). */
  userChanged?: (userId: string) => void;
}

export async function applyUserEvent(deps: ApplyUserEventDeps, event: UserEvent): Promise<void> {
  const u = event.user;
  const { applied } = await deps.users.apply({
    _id: u.id,
    uid: u.uid,
    organization_id: u.organization_id,
    customer_id: u.customer_id,
    status: u.status,
    timezone: u.timezone,
    timezone_origin: u.timezone_origin,
    country_code: u.country_code,
    marketplace_token_sha256: u.marketplace_token_sha256 ?? null,
    mobile_token_sha256: u.mobile_token ? tokenHash(u.mobile_token) : null,
    updated_at: u.updated_at,
  });
  if (applied) deps.userChanged?.(u.id);
  if (!applied || u.status !== 'deleted') return;
  // Every kind: a provider's access is revoked; the demo source stops, a phone app's entry goes.
  for (const c of await deps.connections.byIds(SOURCE_TYPES.map((t) => connectionId(u.id, t)))) await endConnection(deps, c, 'user deleted');
}
