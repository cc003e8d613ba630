/**
 * Assembles an export from the parts every service sends on `user-data-exports`: each part's items
 * become NDJSON lines (`{"type":<kind>,"service":…,"data":…}`) stored as one chunk; a service's
 * last part marks it done; once all are, the file's size, sha256 and counts are computed (a page
 * of chunks at a time) and the job becomes `ready`, audited as `export.completed` with its size.
 * Parts of one export share a partition (keyed by export id), so they arrive one at a time.
 */
import { createHash } from 'node:crypto';
import { auditEntry, auditLogTopic, UserDataExportPart, yieldToOthers } from '@wellstream/contracts';
import type { LifecycleDeps } from '../lifecycle.deps';
import { allPartsDone, chunkOrder, ExportJob } from './export';
import { EXPORTS_COLLECTION } from './export.repository';

export async function assembleExportPart(deps: LifecycleDeps, part: UserDataExportPart): Promise<void> {
  const job = await deps.exports.byId(part.export_id);
  if (!job || job.status !== 'running') return; // erased meanwhile, or a redelivery after completion
  if (part.items.length > 0) {
    const lines = part.items.map((item) => `${JSON.stringify({ type: item.kind, service: part.service, data: item.data })}\n`).join('');
    await deps.exports.saveChunk({ _id: `${job._id}:${chunkOrder(part.service, part.seq)}`, export_id: job._id, order: chunkOrder(part.service, part.seq), lines, items: part.items.length });
  }
  if (!part.last) return;
  const next: ExportJob = { ...job, parts: { ...job.parts, [part.service]: { done: true, items: part.total ?? 0 } } };
  if (!allPartsDone(next)) return deps.exports.replace(next);
  await complete(deps, next);
}

async function complete(deps: LifecycleDeps, job: ExportJob): Promise<void> {
  const hash = createHash('sha256');
  let size = 0;
  const counts: Record<string, number> = {};
  for await (const page of deps.exports.chunkPages(job._id)) {
    for (const chunk of page) {
      hash.update(chunk.lines);
      size += Buffer.byteLength(chunk.lines);
      for (const line of chunk.lines.split('\n')) {
        if (!line) continue;
        const type = (JSON.parse(line) as { type: string }).type;
        counts[type] = (counts[type] ?? 0) + 1;
      }
    }
    await yieldToOthers();
  }
  const now = deps.clock.now().toISOString();
  const ready: ExportJob = { ...job, status: 'ready', completed_at: now, size_bytes: size, sha256: hash.digest('hex'), counts };
  const audit = auditEntry({
    at: now,
    actor: 'operator',
    action: 'export.completed',
    customer_id: job.customer_id,
    organization_id: job.organization_id,
    uid: job.uid,
    user_id: job.user_id,
    service: 'users',
    details: { export_id: job._id, size_bytes: size, sha256: ready.sha256, counts },
  });
  await deps.outbox.write([deps.outbox.message(auditLogTopic, audit, { collection: EXPORTS_COLLECTION, filter: { _id: job._id, status: 'ready' } })], () => deps.exports.replace(ready));
}

/** The manifest line that ends the file. */
export function manifestLine(job: ExportJob): string {
  const services = Object.fromEntries(Object.entries(job.parts).map(([s, p]) => [s, { items: p.items }]));
  return `${JSON.stringify({
    type: 'manifest',
    data: {
      export_id: job._id,
      user_id: job.user_id,
      uid: job.uid,
      organization_id: job.organization_id,
      customer_id: job.customer_id,
      user_status: job.user_status,
      requested_at: job.requested_at,
      completed_at: job.completed_at,
      counts: job.counts,
      services,
      size_bytes: job.size_bytes,
      sha256: job.sha256,
    },
  })}\n`;
}
