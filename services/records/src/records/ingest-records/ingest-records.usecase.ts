/**
 * Ingestion: the one path by which records enter (mobile endpoint and source connectors such as
 * the demo generator). Validates all records (all-or-nothing), normalizes them, and for each new
 * or changed record writes the record and its `data` event through the outbox (libs/outbox): the
 * answer means both are stored; publishing happens after it. Identical content writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { CustomerEvent, customerEventsTopic, SourceDetection, sourceDetectionsTopic } from '@wellstream/contracts';
import type { Outbox, PendingMessage, StateCheck } from '@wellstream/outbox';
import { buildPayload, checksumOf, contentOf, NormalizedContent, RecordDoc, recordIdOf, RecordPayload } from '../record';
import { invalidMobileToken, userSuspended } from '../record.errors';
import { RECORDS_COLLECTION, RecordRepository } from '../record.repository';
import type { BatchByKey, Outcome } from '../batch-by-key';
import { localDateOf } from '../utc-offset';
import { hasSource, ProjectedUser, recordUserOf } from '../../users/user-projection';
import type { UserProjectionRepository } from '../../users/user-projection.repository';
import { resolveOffset, validateRecords, ValidatedRecord } from './validate-records';
import type { Clock } from '@wellstream/clock';

export interface IngestDeps {
  records: RecordRepository;
  outbox: Outbox;
  users: UserProjectionRepository;
  /** One user's uploads, a batch at a time (see BatchByKey). */
  batches: BatchByKey<IngestJob, RecordPayload[]>;
  clock: Clock;
}

/** Refuses users who may not write: deleted (their token is dead) or suspended. */
export function assertMayIngest(user: ProjectedUser | null): asserts user is ProjectedUser {
  if (!user || user.status === 'deleted') throw invalidMobileToken();
  if (user.status === 'suspended') throw userSuspended();
}

/** One request's validated records, waiting for its user's next batch. */
export interface IngestJob {
  user: ProjectedUser;
  validated: ValidatedRecord[];
}

/** At most this many records in one batch's transaction (a single request may bring more). */
export const MAX_BATCH_RECORDS = 1000;

export async function ingestRecords(deps: IngestDeps, user: ProjectedUser, body: unknown): Promise<RecordPayload[]> {
  assertMayIngest(user);
  const validated = validateRecords(body);
  return deps.batches.run(user._id, { user, validated }, validated.length, (jobs) => writeBatch(deps, jobs));
}

/** The jobs of one user, in arrival order, as if one after another; one answer per job. */
async function writeBatch(deps: IngestDeps, jobs: IngestJob[]): Promise<Outcome<RecordPayload[]>[]> {
  // Re-read in the batch: the snapshot may have changed (suspension, detections).
  const current = (await deps.users.byId(jobs[0].user._id)) ?? jobs[0].user;
  assertMayIngest(current);
  return write(deps, current, jobs.map((j) => j.validated));
}

/** An event may be published once this version of the record is stored. */
// Pins the user too: records are partitioned by user (see RecordRepository).
const storedVersion = (doc: RecordDoc): StateCheck => ({ collection: RECORDS_COLLECTION, filter: { user_id: doc.user_id, _id: doc._id, checksum: doc.checksum } });

async function write(deps: IngestDeps, user: ProjectedUser, jobs: ValidatedRecord[][]): Promise<Outcome<RecordPayload[]>[]> {
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const recordUser = recordUserOf(user);
  const idOf = (v: ValidatedRecord) => recordIdOf(user._id, v.kind === 'full' ? v.content.source.type : v.source.type, v.kind === 'full' ? v.content.log_id : v.log_id);
  const ids = jobs.map((validated) => validated.map(idOf));
  // The newest state of each id as the batch goes: a record posted twice, in one request or in two
  // of one batch, compares with what the earlier one wrote.
  const state = new Map<string, RecordDoc>((await deps.records.byIds([...new Set(ids.flat())], user._id)).map((d) => [d._id, d]));
  // Each job's changes in order: every version gets its event, as sequential requests would.
  const changes: RecordDoc[] = [];
  const answers = jobs.map((validated, j) => {
    const answer: RecordPayload[] = [];
    const changed = new Map<string, RecordDoc>();
    validated.forEach((v, i) => {
      const id = ids[j][i];
      const existing = state.get(id);
      let content: NormalizedContent;
      if (v.kind === 'deletion') {
        // Deleting something never stored (or already deleted) changes nothing.
        if (!existing) return;
        content = contentOf(existing.payload, true);
      } else {
        const { utc_offset, ...rest } = v.content;
        content = { ...rest, ...resolveOffset(rest.start_time, utc_offset, user) };
      }
      const checksum = checksumOf(content);
      if (existing && existing.checksum === checksum) {
        answer.push(existing.payload);
        return;
      }
      const deletedAt = content.deleted ? (existing?.deleted_at ?? nowIso) : null;
      const payload = buildPayload({ id, checksum, content, user: recordUser, createdAt: nowIso, deletedAt });
      const doc: RecordDoc = {
        _id: id,
        user_id: user._id,
        organization_id: user.organization_id,
        customer_id: user.customer_id,
        type: content.type,
        source_type: content.source.type,
        log_id: content.log_id,
        local_date: localDateOf(new Date(content.start_time), content.utc_offset),
        start_time: content.start_time,
        deleted_at: deletedAt,
        checksum,
        payload,
      };
      state.set(id, doc);
      changed.set(id, doc);
      answer.push(payload);
    });
    changes.push(...changed.values());
    return answer;
  });
  const done = answers.map((value): Outcome<RecordPayload[]> => ({ ok: true, value }));
  if (changes.length === 0) return done;

  const messages: PendingMessage[] = [];
  const detected = [...user.detected_sources];
  for (const doc of changes) {
    const event: CustomerEvent = {
      id: randomUUID(),
      event_type: 'data',
      key: doc._id,
      customer_id: user.customer_id,
      organization_id: user.organization_id,
      user_id: user._id,
      resource: doc.type,
      start_time: doc.start_time,
      created_at: doc.payload.created_at,
      payload: doc.payload,
    };
    messages.push(deps.outbox.message(customerEventsTopic, event, storedVersion(doc)));
    if (!doc.deleted_at && !hasSource({ ...user, detected_sources: detected }, doc.source_type)) {
      detected.push(doc.source_type);
      const detection: SourceDetection = {
        type: 'source.detected',
        user_id: user._id,
        organization_id: user.organization_id,
        source_type: doc.source_type,
        detected_at: nowIso,
      };
      messages.push(deps.outbox.message(sourceDetectionsTopic, detection, storedVersion(doc)));
    }
  }
  // A record changed by two jobs is stored once, as the later one left it.
  await deps.outbox.writeDocuments(messages, deps.records.saving([...new Map(changes.map((d) => [d._id, d])).values()]));
  if (detected.length !== user.detected_sources.length) await deps.users.markDetected(user._id, detected);
  return done;
}
