/**
 * Erases one user everywhere now (GDPR article 17), or once a deleted user's retention has passed
 * (the sweep): the erasure is stored with its `erasure.requested` message to every service holding
 * user data and its audit entry, through the outbox; each service then removes what it holds (its
 * store, its projections, its share of the event log) and audits what went. The user document
 * goes at once, so no API finds the user from the answer on. Idempotent: a user erased before
 * answers `already_erased` with nothing left to do.
 */
import { randomUUID } from 'node:crypto';
import { auditEntry, auditLogTopic, RETENTION_REQUEST_PREFIX, userDataRequestsTopic } from '@wellstream/contracts';
import { DEFAULT_PUBLISH_WITHIN_MS } from '@wellstream/outbox';
import { userNotFound } from '../../users/user.errors';
import type { User } from '../../users/user';
import type { LifecycleDeps } from '../lifecycle.deps';
import { Erasure, erasureKey, ERASURES_COLLECTION } from './erasure.repository';

export interface ErasureAnswer {
  uid: string;
  organization_id: string;
  status: 'erased';
  already_erased: boolean;
  erased_at: string;
}

export async function requestErasure(deps: LifecycleDeps, organizationId: string, uid: string, actor: string): Promise<ErasureAnswer> {
  const user = await deps.users.findByUid(organizationId, uid);
  if (!user) {
    const before = await deps.erasures.byKey(erasureKey(organizationId, uid));
    if (!before) throw userNotFound(uid);
    return { uid, organization_id: organizationId, status: 'erased', already_erased: true, erased_at: before.erased_at };
  }
  const erasure = await eraseUser(deps, user, 'request', actor);
  return { uid, organization_id: organizationId, status: 'erased', already_erased: false, erased_at: erasure.erased_at };
}

export async function eraseUser(deps: LifecycleDeps, user: User, reason: Erasure['reason'], actor: string): Promise<Erasure> {
  const now = deps.clock.now().toISOString();
  const requestId = `${reason === 'retention' ? RETENTION_REQUEST_PREFIX : 'era_'}${randomUUID().replace(/-/g, '')}`;
  const erasure: Erasure = {
    _id: erasureKey(user.organization_id, user.uid),
    user_id: user.id,
    organization_id: user.organization_id,
    customer_id: user.customer_id,
    request_id: requestId,
    reason,
    erased_at: now,
  };
  const stored = { collection: ERASURES_COLLECTION, filter: { _id: erasure._id, request_id: requestId } };
  const request = { type: 'erasure.requested' as const, request_id: requestId, user_id: user.id, organization_id: user.organization_id, customer_id: user.customer_id, requested_at: now };
  const audit = auditEntry({
    at: now,
    actor,
    action: 'erasure.requested',
    customer_id: user.customer_id,
    organization_id: user.organization_id,
    uid: null,
    user_id: user.id,
    service: 'users',
    details: { request_id: requestId, reason, user_status: user.status, deleted_at: user.deleted_at },
  });
  // On the log before the answer: a stream or replay started after it knows the user is gone.
  await deps.outbox.write(
    [deps.outbox.message(userDataRequestsTopic, request, stored), deps.outbox.message(auditLogTopic, audit, stored)],
    async () => {
      await deps.erasures.save(erasure);
      await deps.users.remove(user.id);
    },
    { publishWithinMs: DEFAULT_PUBLISH_WITHIN_MS },
  );
  return erasure;
}
