/**
 * Starts a special-request export of one user (active, suspended or deleted alike): the job is
 * stored with its `export.requested` message to every service holding user data and its audit
 * entry, through the outbox (the answer means all three are stored).
 */
import { randomUUID } from 'node:crypto';
import { auditEntry, auditLogTopic, userDataRequestsTopic } from '@wellstream/contracts';
import { userNotFound } from '../../../users/user.errors';
import type { LifecycleDeps } from '../../lifecycle.deps';
import { emptyParts, ExportJob, newExportId } from '../export';
import { EXPORTS_COLLECTION } from '../export.repository';

export async function requestExport(deps: LifecycleDeps, organizationId: string, uid: string, actor: string): Promise<ExportJob> {
  const user = await deps.users.findByUid(organizationId, uid);
  if (!user) throw userNotFound(uid);
  const now = deps.clock.now().toISOString();
  const job: ExportJob = {
    _id: newExportId(randomUUID()),
    user_id: user.id,
    uid: user.uid,
    organization_id: user.organization_id,
    customer_id: user.customer_id,
    user_status: user.status,
    status: 'running',
    requested_at: now,
    completed_at: null,
    parts: emptyParts(),
    size_bytes: null,
    sha256: null,
    counts: null,
  };
  const stored = { collection: EXPORTS_COLLECTION, filter: { _id: job._id } };
  const request = { type: 'export.requested' as const, request_id: job._id, user_id: user.id, organization_id: user.organization_id, customer_id: user.customer_id, requested_at: now };
  const audit = auditEntry({
    at: now,
    actor,
    action: 'export.requested',
    customer_id: user.customer_id,
    organization_id: user.organization_id,
    uid: user.uid,
    user_id: user.id,
    service: 'users',
    details: { export_id: job._id, user_status: user.status },
  });
  await deps.outbox.write([deps.outbox.message(userDataRequestsTopic, request, stored), deps.outbox.message(auditLogTopic, audit, stored)], () => deps.exports.insert(job));
  return job;
}
