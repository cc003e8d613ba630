/**
 * How a service that holds user data answers the `user-data-requests` topic (docs/data-lifecycle.md): an export
 * is its share of the user's data read from its own store page by page and sent as numbered parts
 * on `user-data-exports`; an erasure (on request, or the retention sweep the users service starts
 * once a deleted user's retention has passed) removes it from its own store in small slices and
 * says what went in the audit log, through the service's outbox. The same code runs in every
 * holder, so each only says what it holds (`UserDataHolder`).
 */
import {
  auditEntry,
  auditLogTopic,
  ExportItem,
  publishEvents,
  RETENTION_REQUEST_PREFIX,
  USER_DATA_EXPORT_MAX_ITEMS,
  UserDataRequest,
  userDataExportsTopic,
  userDataRequestsTopic,
  UserDataService,
  yieldToOthers,
} from '@wellstream/contracts';
import type { Outbox } from '@wellstream/outbox';
import type { Clock } from '@wellstream/clock';
import { systemClock } from '@wellstream/clock';
import type { Collection } from '@wellstream/store';
import type { ServiceContext } from '../start-service';

/** What one service holds about a user, and how it removes it. */
export interface UserDataHolder {
  service: UserDataService;
  /** The user's data in pages (each page one bounded read of the service's own store). */
  exportPages(request: UserDataRequest): AsyncIterable<ExportItem[]>;
  /**
   * Removes everything the service holds about the user, in bounded slices (each one short store
   * call); resolves to what went, by kind. Running it again removes nothing more.
   */
  erase(request: UserDataRequest): Promise<Record<string, number>>;
}

interface Receipt {
  _id: string;
  type: UserDataRequest['type'];
  user_id: string;
  done_at: string;
  removed: Record<string, number>;
}

export const DATA_REQUEST_RECEIPTS = 'data_request_receipts';

export async function answerUserDataRequests(ctx: ServiceContext, outbox: Outbox, holder: UserDataHolder, clock: Clock = systemClock): Promise<void> {
  const receipts = await ctx.store.collection<Receipt>({ name: DATA_REQUEST_RECEIPTS });
  await ctx.eventLog.ensureTopic(userDataRequestsTopic.spec);
  await ctx.eventLog.ensureTopic(userDataExportsTopic.spec);
  await ctx.eventLog.ensureTopic(auditLogTopic.spec);
  await ctx.consume(userDataRequestsTopic, {
    groupId: `${ctx.name}.user-data-requests`,
    fromBeginning: true,
    handle: async (request) => {
      if (request.type === 'export.requested') await sendExport(ctx, holder, request, clock);
      else await erase(outbox, receipts, holder, request, clock);
    },
  });
}

/** The parts are keyed by (export, service, seq): a redelivered request sends the same parts again, and the assembler keeps one of each. */
async function sendExport(ctx: ServiceContext, holder: UserDataHolder, request: UserDataRequest, clock: Clock): Promise<void> {
  let seq = 0;
  let total = 0;
  const part = (items: ExportItem[], last: boolean) => ({
    type: 'export.part' as const,
    export_id: request.request_id,
    service: holder.service,
    seq: seq++,
    items,
    last,
    ...(last ? { total } : {}),
    produced_at: clock.now().toISOString(),
  });
  for await (const page of holder.exportPages(request)) {
    for (let i = 0; i < page.length; i += USER_DATA_EXPORT_MAX_ITEMS) {
      const items = page.slice(i, i + USER_DATA_EXPORT_MAX_ITEMS);
      total += items.length;
      await publishEvents(ctx.eventLog, userDataExportsTopic, [part(items, false)]);
    }
    await yieldToOthers();
  }
  await publishEvents(ctx.eventLog, userDataExportsTopic, [part([], true)]);
}

async function erase(outbox: Outbox, receipts: Collection<Receipt>, holder: UserDataHolder, request: UserDataRequest, clock: Clock): Promise<void> {
  const removed = await holder.erase(request);
  if (await receipts.findOne({ _id: request.request_id })) return; // a redelivery: audited already
  const retention = request.request_id.startsWith(RETENTION_REQUEST_PREFIX);
  const at = clock.now().toISOString();
  const receipt: Receipt = { _id: request.request_id, type: request.type, user_id: request.user_id, done_at: at, removed };
  const entry = auditEntry({
    at,
    actor: retention ? 'system:retention' : 'operator',
    action: retention ? 'retention.swept' : 'erasure.completed',
    customer_id: request.customer_id,
    organization_id: request.organization_id,
    uid: null,
    user_id: request.user_id,
    service: holder.service,
    details: { request_id: request.request_id, removed },
  });
  await outbox.write([outbox.message(auditLogTopic, entry, { collection: DATA_REQUEST_RECEIPTS, filter: { _id: request.request_id } })], () =>
    receipts.bulkUpsert([receipt]),
  );
}

/** Removes what `filter` matches in slices of `slice` documents (one short store call each), yielding between them. */
export async function deleteInSlices<T extends { _id: string }>(collection: Collection<T>, filter: Parameters<Collection<T>['find']>[0], slice = 200): Promise<number> {
  let removed = 0;
  for (;;) {
    const ids = (await collection.find(filter, { limit: slice })).map((d) => d._id);
    if (ids.length === 0) return removed;
    removed += await collection.deleteMany({ ...filter, _id: { $in: ids } } as typeof filter);
    await yieldToOthers();
  }
}
