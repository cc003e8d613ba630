/**
 * How an export job is shown to the operator; a ready one carries a fresh signed download link.
 */
import type { LifecycleDeps } from '../lifecycle.deps';
import type { ExportJob } from './export';
import { exportLink } from './export-link';

export function exportView(job: ExportJob, deps: LifecycleDeps) {
  const done = Object.values(job.parts).filter((p) => p.done).length;
  const total = Object.keys(job.parts).length;
  const expiresAt = deps.clock.now().getTime() + deps.linkTtlSeconds * 1000;
  return {
    id: job._id,
    uid: job.uid,
    organization_id: job.organization_id,
    user_status: job.user_status,
    status: job.status,
    progress: { services_done: done, services_total: total, parts: job.parts },
    requested_at: job.requested_at,
    completed_at: job.completed_at,
    size_bytes: job.size_bytes,
    sha256: job.sha256,
    counts: job.counts,
    download_url: job.status === 'ready' ? exportLink(deps.publicUrl, deps.linkKey, job._id, expiresAt) : null,
    download_expires_at: job.status === 'ready' ? new Date(Math.floor(expiresAt / 1000) * 1000).toISOString() : null,
  };
}
