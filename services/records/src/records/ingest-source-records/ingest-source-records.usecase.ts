/**
 * Records fetched by the sources service (`source-records` topic) enter through the one ingestion
 * path: the same validation, `(user, source.type, log_id)` identity, checksums and events as a
 * mobile post. A message is all-or-nothing like a post; when a provider sent something our
 * schemas refuse, the message's records are taken one by one so the good ones are not lost with
 * the bad, and each refused one is logged with its errors (the provider's data, not a retry case).
 */
import type { SourceRecordsEvent } from '@wellstream/contracts';
import { isAppError } from '@wellstream/errors';
import type { Logger } from '@wellstream/logging';
import { ingestRecords, IngestDeps } from '../ingest-records/ingest-records.usecase';
import type { ProjectedUser } from '../../users/user-projection';

export interface SourceIngestDeps {
  ingest: IngestDeps;
  logger: Logger;
  /**
   * The user as the users service last published it: a user the projection does not know yet is
   * looked up again once the projection has handled the users log (the sources service may hand
   * over records, the demo source's first, a moment after the user was created).
   */
  userById(id: string): Promise<ProjectedUser | null>;
}

export async function ingestSourceRecords(deps: SourceIngestDeps, event: SourceRecordsEvent): Promise<void> {
  const user = await deps.userById(event.user_id);
  const userReadAt = deps.ingest.clock.now().getTime();
  const log = { message_id: event.id, user_id: event.user_id, source_type: event.source_type };
  if (!user || user.status !== 'active' || user.organization_id !== event.organization_id) {
    deps.logger.info('dropping fetched records of a user who may not write', { ...log, status: user?.status ?? 'unknown' });
    return;
  }
  // Only the source that fetched them may be named: a provider cannot write under another source.
  const records: Record<string, unknown>[] = event.records.map((r) => ({ ...r, source: { ...(typeof r.source === 'object' && r.source ? r.source : {}), type: event.source_type } }));
  try {
    await ingestRecords(deps.ingest, user, { records }, { userReadAt });
    return;
  } catch (err) {
    if (!refused(err)) throw err;
  }
  let refusedCount = 0;
  for (const [i, record] of records.entries()) {
    try {
      await ingestRecords(deps.ingest, user, { records: [record] });
    } catch (err) {
      if (!refused(err)) throw err;
      refusedCount++;
      deps.logger.warn('a fetched record was refused by validation', { ...log, index: i, log_id: record.log_id, type: record.type, errors: isAppError(err) ? err.fieldErrors : undefined });
    }
  }
  deps.logger.warn('fetched records refused', { ...log, refused: refusedCount, of: records.length });
}

const refused = (err: unknown) => isAppError(err) && (err.kind === 'bad_request' || err.kind === 'unprocessable' || err.kind === 'unauthenticated');
