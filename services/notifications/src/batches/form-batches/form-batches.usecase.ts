/**
 * Turns pending items into batches. An organization is due when it has a full batch waiting or its
 * oldest item has waited the flush time. Each batch is stored (with its items) before its first
 * try, then its pending items are removed.
 *
 * Crash safety without transactions: the batch id is derived from the organization and its first
 * item, so if the process dies between storing a batch and removing its items, the next run forms
 * the same id, hits the duplicate, and only removes the items the stored batch already holds.
 * A per-organization lease keeps two replicas from forming the same organization's batches.
 */
import { createHash } from 'node:crypto';
import { DuplicateKeyError } from '@wellstream/store';
import type { Logger } from '@wellstream/logging';
import type { TargetRepository } from '../../targets/target.repository';
import { newBatch } from '../batch';
import type { BatchRepository } from '../batch.repository';
import type { PendingItem, PendingItemRepository } from '../pending-item.repository';
import type { PushOrganizationRepository } from '../push-organization.repository';
import type { Clock } from '@wellstream/clock';
import { GoneUsersSource, withholdFromQueue } from '../../withheld/withhold-gone';
import type { WithheldItemRepository } from '../../withheld/withheld-item.repository';

export interface FormBatchesDeps {
  targets: TargetRepository;
  pendingItems: PendingItemRepository;
  batches: BatchRepository;
  organizations: PushOrganizationRepository;
  settings: { flushMs: number; batchSize: number };
  logger: Logger;
  clock: Clock;
  /** Deleted and erased users: items of theirs queued just before are taken out, not batched. */
  gone: GoneUsersSource;
  withheld: WithheldItemRepository;
}

const FORMATION_LEASE_MS = 30_000;
/** How often an erasure asks again for an organization's formation lease while a pass holds it. */
const LEASE_RETRY_MS = 100;

/** Bounds one pass; the next pass continues (keeps a pass short when an organization floods). */
const MAX_BATCHES_PER_ORGANIZATION_PASS = 20;
const SCAN_LIMIT = 2000;

export function batchIdFor(organizationId: string, firstItemId: string): string {
  const h = createHash('sha256').update(`${organizationId}\n${firstItemId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Forms every batch that is due now; returns how many were formed. */
export async function formDueBatches(deps: FormBatchesDeps): Promise<number> {
  const now = deps.clock.now().getTime();
  const oldest = await deps.pendingItems.oldest(SCAN_LIMIT);
  const byOrganization = new Map<string, { count: number; oldestMs: number }>();
  for (const item of oldest) {
    const o = byOrganization.get(item.organization_id) ?? { count: 0, oldestMs: item.enqueued_ms };
    o.oldestMs = Math.min(o.oldestMs, item.enqueued_ms);
    o.count += 1;
    byOrganization.set(item.organization_id, o);
  }
  let formed = 0;
  for (const [organizationId, o] of byOrganization) {
    // An organization cut off by the scan limit may be due by size: forming checks precisely.
    const maybeFull = o.count >= deps.settings.batchSize || oldest.length >= SCAN_LIMIT;
    if (maybeFull || o.oldestMs <= now - deps.settings.flushMs) formed += await formForOrganization(deps, organizationId, now);
  }
  return formed;
}

async function formForOrganization(deps: FormBatchesDeps, organizationId: string, now: number): Promise<number> {
  if (!(await deps.organizations.leaseFormation(organizationId, now, FORMATION_LEASE_MS))) return 0;
  let formed = 0;
  try {
    for (let i = 0; i < MAX_BATCHES_PER_ORGANIZATION_PASS; i++) {
      const read = await deps.pendingItems.forOrganization(organizationId, deps.settings.batchSize);
      if (read.length === 0) break;
      const items = await withholdFromQueue({ ...deps, pending: deps.pendingItems }, organizationId, read, await deps.gone.forOrganization(organizationId));
      if (items.length === 0) continue;
      const full = items.length >= deps.settings.batchSize;
      if (!full && items[0].enqueued_ms > now - deps.settings.flushMs) break;
      const target = await deps.targets.get(organizationId);
      if (!target) {
        // The target was removed after these records were queued: nobody wants them.
        await deps.pendingItems.removeOrganization(organizationId);
        break;
      }
      if (await storeBatch(deps, organizationId, items, now)) formed += 1;
    }
  } finally {
    await deps.organizations.releaseFormation(organizationId);
  }
  return formed;
}

/**
 * Runs `work` while no batch of the organization is being formed (it holds the formation lease,
 * asking again while a pass has it). An erasure rewriting the organization's queue and batches
 * must not run beside a pass that has read items it has not stored as a batch yet.
 */
export async function whileNotForming<T>(deps: Pick<FormBatchesDeps, 'organizations' | 'clock'>, organizationId: string, work: () => Promise<T>): Promise<T> {
  // A pass ends within its lease: past twice that, the lease is not coming back (a stuck store).
  const deadline = deps.clock.now().getTime() + 2 * FORMATION_LEASE_MS;
  while (!(await deps.organizations.leaseFormation(organizationId, deps.clock.now().getTime(), FORMATION_LEASE_MS))) {
    if (deps.clock.now().getTime() > deadline) throw new Error(`the push queue of organization ${organizationId} stayed busy; the request is tried again`);
    await new Promise((resolve) => setTimeout(resolve, LEASE_RETRY_MS));
  }
  try {
    return await work();
  } finally {
    await deps.organizations.releaseFormation(organizationId);
  }
}

async function storeBatch(deps: FormBatchesDeps, organizationId: string, items: PendingItem[], now: number): Promise<boolean> {
  const id = batchIdFor(organizationId, items[0]._id);
  const seq = await deps.organizations.nextSeq(organizationId);
  const batch = newBatch({ id, organizationId, seq, items: items.map((i) => i.record), itemIds: items.map((i) => i._id), now });
  try {
    await deps.batches.insert(batch);
  } catch (err) {
    if (!(err instanceof DuplicateKeyError)) throw err;
    const existing = await deps.batches.byId(id);
    deps.logger.warn('batch already formed; removing its pending items', { batch_id: id, organization_id: organizationId });
    await deps.pendingItems.remove(existing?.item_ids ?? [items[0]._id]);
    return false;
  }
  await deps.pendingItems.remove(batch.item_ids);
  deps.logger.info('batch formed', { batch_id: id, organization_id: organizationId, items: items.length });
  return true;
}
