/**
 * The records service's share of a user's data (docs/data-lifecycle.md): every record of every type, deleted ones
 * included, as stored now, and each earlier version a change replaced (`record_version`); for an erasure also its content keys and
 * availability stats, its projections of the user and of the user's provider connections, and the
 * organization's FHIR Bulk Data exports (whose files hold the user among others). Every
 * query pins the user (the collections' partition key), so the work follows this user's data.
 */
import type { ExportItem, UserDataRequest } from '@wellstream/contracts';
import { deleteInSlices, IDEMPOTENT_ANSWERS_SPEC, UserDataHolder } from '@wellstream/runtime';
import type { DocumentStore } from '@wellstream/store';
import type { RecordDoc } from '../records/record';
import { RECORDS_SPEC } from '../records/record.repository';
import { USER_KEYS_SPEC, USER_PROJECTION_SPEC } from '../users/user-projection.repository';
import { RECORD_KEYS_SPEC, RecordKeyDoc } from '../records/record-keys.repository';
import { SOURCE_CONNECTION_PROJECTION_SPEC } from '../availability/source-connection-projection';
import { ExportJobRepository } from '../fhir/export/export-job.repository';

/** Records per page (one bounded read each). */
const PAGE = 200;

export async function recordsDataHolder(store: DocumentStore): Promise<UserDataHolder> {
  // The same collections the repositories open, declared as they declare them.
  const records = await store.collection<RecordDoc>(RECORDS_SPEC);
  const keys = await store.collection<RecordKeyDoc>(RECORD_KEYS_SPEC);
  const projection = await store.collection<{ _id: string }>(USER_PROJECTION_SPEC);
  const userKeys = await store.collection<{ _id: string; user_id: string }>(USER_KEYS_SPEC);
  const connections = await store.collection<{ _id: string; user_id: string }>(SOURCE_CONNECTION_PROJECTION_SPEC);
  const fhirExports = await ExportJobRepository.open(store);
  const answers = await store.collection<{ _id: string; user_id?: string }>(IDEMPOTENT_ANSWERS_SPEC);
  return {
    service: 'records',
    async *exportPages(request: UserDataRequest): AsyncIterable<ExportItem[]> {
      for await (const page of records.findPages({ user_id: request.user_id }, { sort: { type: 1, start_time: 1 }, pageSize: PAGE })) {
        yield page.map((r) => ({ kind: 'record', data: { ...r.payload, deleted_at: r.deleted_at } }));
      }
      // Earlier versions, each with when a change replaced it.
      for await (const page of keys.findPages({ user_id: request.user_id, kind: 'version' }, { sort: { _id: 1 }, pageSize: PAGE })) {
        yield page.flatMap((v): ExportItem[] => (v.kind === 'version' ? [{ kind: 'record_version', data: { ...v.payload, superseded_at: v.superseded_at } }] : []));
      }
    },
    async erase(request: UserDataRequest): Promise<Record<string, number>> {
      const user = { user_id: request.user_id };
      return {
        records: await deleteInSlices(records, user),
        record_keys: await deleteInSlices(keys, user),
        user_keys: await userKeys.deleteMany(user),
        connection_projections: await connections.deleteMany(user),
        user_projections: await projection.deleteMany({ _id: request.user_id }),
        // FHIR Bulk Data files mix the organization's users: every export of the organization goes.
        fhir_exports: await fhirExports.cancelAllOf(request.organization_id),
        idempotent_answers: await answers.deleteMany({ user_id: request.user_id }),
      };
    },
  };
}
