/**
 * Ingestion: the one path by which records enter (the mobile endpoint, and the sources service's
 * `source-records`, the demo source's included). Validates all records (all-or-nothing), normalizes them, and for each new
 * or changed record writes the record and its `data` event through the outbox (libs/outbox): the
 * answer means both are stored; publishing happens after it. Identical content writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { CustomerEvent, customerEventsTopic, SourceDetection, sourceDetectionsTopic } from '@wellstream/contracts';
import type { Outbox, PendingMessage, StateCheck } from '@wellstream/outbox';
import { buildPayload, checksumAndContentKey, checksumOf, contentOf, NormalizedContent, RecordDoc, recordIdOf, RecordPayload } from '../record';
import { invalidMobileToken, userSuspended } from '../record.errors';
import { RECORDS_COLLECTION, RecordRepository } from '../record.repository';
import type { BatchByKey, Outcome } from '../batch-by-key';
import { localDateOf } from '@wellstream/clock';
import { AvailabilityStatsDoc, RecordKeyDoc, RecordKeysRepository, RecordVersionDoc, statsIdOf, versionIdOf } from '../record-keys.repository';
import { ProjectedUser, recordUserOf } from '../../users/user-projection';
import { RESOURCE_TYPES } from '@wellstream/catalog';
import { bySource, isPhoneSource, uploadOf } from './phone-uploads';
import type { UserProjectionRepository } from '../../users/user-projection.repository';
import { resolveOffset, validateRecords, ValidatedRecord } from './validate-records';
import type { Clock } from '@wellstream/clock';
import type { IngestionTally } from '../../ingestion-stats/ingestion-count.repository';

export interface IngestDeps {
  records: RecordRepository;
  /** Content keys (same-source duplicates) and availability stats, written with the records. */
  keys: RecordKeysRepository;
  outbox: Outbox;
  users: UserProjectionRepository;
  /** One user's uploads, a batch at a time (see BatchByKey). */
  batches: BatchByKey<IngestJob, RecordPayload[]>;
  clock: Clock;
  /** Told what each batch stored, per organization and UTC day (the operator's ingestion counts); no I/O. */
  counts: { add(organizationId: string, date: string, tally: IngestionTally): void };
}

/** Refuses users who may not write: deleted (their token is dead) or suspended. */
export function assertMayIngest(user: ProjectedUser | null): asserts user is ProjectedUser {
  if (!user || user.status === 'deleted') throw invalidMobileToken();
  if (user.status === 'suspended') throw userSuspended();
}

/** One request's validated records, waiting for its user's next batch. */
export interface IngestJob {
  user: ProjectedUser;
  /** When `user` was read (ms since the epoch), if the caller read it just now. */
  userReadAt?: number;
  validated: ValidatedRecord[];
}

/**
 * A batch whose users were all read at most this long before it started uses them as read: read
 * again, the user would be hardly fresher by the time the batch writes (a read was one of the five
 * store commands a request waited on, and a round trip of every single-record upload).
 */
export const FRESH_USER_MS = 50;

export interface IngestOptions {
  /** Refuses a valid request for what it writes (the mobile endpoint's disconnected phone stores). */
  gate?: (validated: ValidatedRecord[]) => Promise<void>;
  /** When the caller read `user` (ms since the epoch); without it, the batch reads the user again. */
  userReadAt?: number;
}

/** At most this many records in one batch's transaction (a single request may bring more). */
export const MAX_BATCH_RECORDS = 1000;

export async function ingestRecords(deps: IngestDeps, user: ProjectedUser, body: unknown, options: IngestOptions = {}): Promise<RecordPayload[]> {
  assertMayIngest(user);
  const validated = validateRecords(body);
  await options.gate?.(validated);
  return deps.batches.run(user._id, { user, userReadAt: options.userReadAt, validated }, validated.length, (jobs) => writeBatch(deps, jobs));
}

/** The newest of the jobs' users when every one was read within FRESH_USER_MS, else null (read it again). */
function freshUser(jobs: IngestJob[], now: number): ProjectedUser | null {
  return jobs.every((j) => j.userReadAt !== undefined && now - j.userReadAt <= FRESH_USER_MS) ? jobs[jobs.length - 1].user : null;
}

/** The jobs of one user, in arrival order, as if one after another; one answer per job. */
async function writeBatch(deps: IngestDeps, jobs: IngestJob[]): Promise<Outcome<RecordPayload[]>[]> {
  const validated = jobs.map((j) => j.validated);
  // Unless its requests read it just now, the user is read again in the batch (suspension,
  // detections, time zone may have changed since the request's snapshot), beside the batch's own
  // reads rather than before them: records are prepared with the snapshot, and again only in the
  // rare case its time zone moved meanwhile.
  const snapshot = jobs[0].user;
  const prepared = prepareJobs(snapshot, validated);
  const fresh = freshUser(jobs, deps.clock.now().getTime());
  const [current, stored] = await Promise.all([fresh ?? deps.users.byId(snapshot._id), readStored(deps, snapshot._id, prepared)]);
  const user = current ?? snapshot;
  assertMayIngest(user);
  if (user.timezone === snapshot.timezone && user.timezone_origin === snapshot.timezone_origin) return write(deps, user, prepared, stored);
  const again = prepareJobs(user, validated);
  return write(deps, user, again, await readStored(deps, user._id, again));
}

/** What a batch reads before it writes: its records as stored, and its key documents. */
interface StoredState {
  records: RecordDoc[];
  keys: Map<string, RecordKeyDoc>;
  /** The stats ids of the (source, resource) pairs the batch posts. */
  pairStats: Set<string>;
}

/** One keyed read of the records, one of the key documents (content keys and the batch's pairs' stats). */
async function readStored(deps: IngestDeps, userId: string, prepared: PreparedRecord[][]): Promise<StoredState> {
  const all = prepared.flat();
  // The stats of each (source, resource) the batch posts: what its changes count into, and enough
  // to tell most sources seen before (see firstSeen and sourcesSeen).
  const pairStats = new Set(all.map((p) => statsIdOf(userId, p.sourceType, p.type)));
  const [records, keys] = await Promise.all([
    deps.records.byIds([...new Set(all.map((p) => p.id))], userId),
    deps.keys.byIds(userId, [...all.flatMap((p) => (p.full ? [p.full.contentKey] : [])), ...pairStats]),
  ]);
  return { records, keys, pairStats };
}

/** An event may be published once this version of the record is stored. */
// Pins the user too: records are partitioned by user (see RecordRepository).
const storedVersion = (doc: RecordDoc): StateCheck => ({ collection: RECORDS_COLLECTION, filter: { user_id: doc.user_id, _id: doc._id, checksum: doc.checksum } });

/** `prepared`: each posted record's identity, and for a full one its content, checksum and content key. */
async function write(deps: IngestDeps, user: ProjectedUser, prepared: PreparedRecord[][], read: StoredState): Promise<Outcome<RecordPayload[]>[]> {
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const recordUser = recordUserOf(user);
  const all = prepared.flat();
  const { records: stored, keys, pairStats } = read;
  // The newest state of each id as the batch goes: a record posted twice, in one request or in two
  // of one batch, compares with what the earlier one wrote.
  const state = new Map<string, RecordDoc>(stored.map((d) => [d._id, d]));
  const owners = new Map<string, string | null>();
  const stats = new Map<string, AvailabilityStatsDoc>();
  for (const k of keys.values()) {
    if (k.kind === 'content') owners.set(k._id, k.record_id);
    else if (k.kind === 'stats') stats.set(k._id, k);
  }
  const seenBefore = await sourcesSeen(deps.keys, user._id, all, stored, pairStats, stats);
  // Key documents read just now, so most likely stored: rewritten as they are (a hint for the store).
  const readKeys = [...new Set([...keys.keys(), ...stats.keys()])];
  const keyWrites = new Map<string, RecordKeyDoc>();
  const setOwner = (key: string, recordId: string | null) => {
    owners.set(key, recordId);
    keyWrites.set(key, { _id: key, user_id: user._id, kind: 'content', record_id: recordId });
  };
  // Same-source duplicates answer the record they repeat; filled in once every original is known.
  const duplicates: { answer: RecordPayload[]; index: number; of: string }[] = [];
  // Each job's changes in order: every version gets its event, as sequential requests would.
  const changes: RecordDoc[] = [];
  // What the changes replaced, kept as the records' history (the export's record versions).
  const versions: RecordVersionDoc[] = [];
  const answers = prepared.map((records) => {
    const answer: RecordPayload[] = [];
    const changed = new Map<string, RecordDoc>();
    records.forEach((p) => {
      const id = p.id;
      const existing = state.get(id);
      let content: NormalizedContent;
      let checksum: string;
      if (!p.full) {
        // Deleting something never stored (or already deleted) changes nothing.
        if (!existing) return;
        content = contentOf(existing.payload, true);
        checksum = checksumOf(content);
      } else {
        content = p.full.content;
        checksum = p.full.checksum;
      }
      if (existing && existing.checksum === checksum) {
        answer.push(existing.payload);
        return;
      }
      const live = existing !== undefined && existing.deleted_at === null;
      if (p.full && !live) {
        const owner = owners.get(p.full.contentKey);
        if (owner && owner !== id) {
          duplicates.push({ answer, index: answer.length, of: owner });
          answer.push(null as unknown as RecordPayload);
          return;
        }
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
      // The content key follows the record: released when its content changes or it is deleted,
      // taken for the new content unless another live record holds it already.
      const newKey = deletedAt === null && p.full ? p.full.contentKey : undefined;
      if (existing?.content_key && existing.content_key !== newKey && owners.get(existing.content_key) !== null) setOwner(existing.content_key, null);
      if (newKey) {
        const owner = owners.get(newKey);
        if (!owner || owner === id) {
          if (owner !== id) setOwner(newKey, id);
          doc.content_key = newKey;
        }
      }
      if (existing) versions.push({ _id: versionIdOf(id, existing.checksum), user_id: user._id, kind: 'version', record_id: id, superseded_at: nowIso, payload: existing.payload as unknown as Record<string, unknown> });
      countIn(stats, doc, live, nowIso);
      state.set(id, doc);
      changed.set(id, doc);
      answer.push(payload);
    });
    changes.push(...changed.values());
    return answer;
  });
  if (duplicates.length) {
    const missing = duplicates.map((d) => d.of).filter((of) => !state.has(of));
    for (const d of await deps.records.byIds([...new Set(missing)], user._id)) state.set(d._id, d);
    for (const d of duplicates) {
      const original = state.get(d.of);
      // The holder vanished meanwhile (a lost race): answer the holder's id all the same.
      d.answer[d.index] = { ...(original?.payload ?? { id: d.of }), duplicate_of: d.of } as unknown as RecordPayload;
    }
  }
  const done = answers.map((value): Outcome<RecordPayload[]> => ({ ok: true, value }));
  if (changes.length === 0) return done;


  const messages: PendingMessage[] = [];
  const undetected = firstSeen(changes, seenBefore);
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
    if (isPhoneSource(doc.source_type)) continue;
    if (!doc.deleted_at && undetected.delete(doc.source_type)) messages.push(deps.outbox.message(sourceDetectionsTopic, detectionOf(user, doc.source_type, nowIso), storedVersion(doc)));
  }
  for (const [sourceType, docs] of bySource(changes.filter((d) => isPhoneSource(d.source_type)))) {
    const upload = uploadOf(docs, undetected.has(sourceType));
    messages.push(deps.outbox.message(sourceDetectionsTopic, { ...detectionOf(user, sourceType, nowIso), upload }, storedVersion(docs[docs.length - 1])));
  }
  // A record changed by two jobs is stored once, as the later one left it.
  const docs = [...new Map(changes.map((d) => [d._id, d])).values()];
  const keyDocs: RecordKeyDoc[] = [...keyWrites.values(), ...changedStats(stats, changes), ...versions];
  const records = deps.records.saving(docs, stored.map((d) => d._id));
  // The keys, stats and earlier versions follow from the records: written after them (a crash in
  // between leaves them with the outbox entry, which the relay writes before publishing).
  await deps.outbox.writeDocuments(messages, { sets: records.sets, apply: records.apply, derived: [deps.keys.upsertSet(keyDocs, readKeys)] });
  deps.counts.add(user.organization_id, nowIso.slice(0, 10), tallyOf(changes, stored));
  return done;
}

const detectionOf = (user: ProjectedUser, sourceType: string, at: string): SourceDetection => ({
  type: 'source.detected',
  user_id: user._id,
  organization_id: user.organization_id,
  source_type: sourceType,
  detected_at: at,
});

/**
 * The sources whose first record for the user this batch stores: records reports them
 * (`source-detections`) and the sources service, which owns a user's sources, connects a phone
 * app or the demo source (never a provider: those connect by their sign-in) unless it is connected
 * already. Decided from records' own availability stats, read with the batch, rather than from a
 * list of the user's sources kept here: no other service's copy can lag it, and a user who
 * disconnected a phone app is not connected again by the data it keeps sending.
 */
function firstSeen(changes: RecordDoc[], seenBefore: Set<string>): Set<string> {
  return new Set(changes.filter((d) => !d.deleted_at && !seenBefore.has(d.source_type)).map((d) => d.source_type));
}

/**
 * The batch's sources that have stored records before, from their availability stats: any stats
 * document of a source means it was seen. The stats of the batch's own (source, resource) pairs
 * are in `stats` already; only for a source none of whose were found (its first record, or its
 * first of this resource) are its other resources' stats read, with those of a deletion whose
 * stored record has another resource than the request names, in one more read. Every stats
 * document a change counts into is in `stats` once this resolves.
 */
async function sourcesSeen(
  keys: RecordKeysRepository,
  userId: string,
  all: PreparedRecord[],
  stored: RecordDoc[],
  asked: Set<string>,
  stats: Map<string, AvailabilityStatsDoc>,
): Promise<Set<string>> {
  const seen = new Set([...stats.values()].map((x) => x.source_type));
  const more = new Set<string>();
  for (const d of stored) {
    const id = statsIdOf(userId, d.source_type, d.type);
    if (!asked.has(id)) more.add(id);
  }
  for (const source of new Set(all.map((p) => p.sourceType))) {
    if (seen.has(source)) continue;
    for (const type of RESOURCE_TYPES) {
      const id = statsIdOf(userId, source, type);
      if (!asked.has(id)) more.add(id);
    }
  }
  if (more.size === 0) return seen;
  for (const k of (await keys.byIds(userId, [...more])).values()) {
    if (k.kind !== 'stats') continue;
    stats.set(k._id, k);
    seen.add(k.source_type);
  }
  return seen;
}

/** Every stored version, once: a deletion, the first version of a record never stored, or an update. */
function tallyOf(changes: RecordDoc[], storedBefore: RecordDoc[]): IngestionTally {
  const seen = new Set(storedBefore.map((d) => d._id));
  const tally: IngestionTally = { created: 0, updated: 0, deleted: 0 };
  for (const doc of changes) {
    if (doc.deleted_at !== null) tally.deleted++;
    else if (seen.has(doc._id)) tally.updated++;
    else tally.created++;
    seen.add(doc._id);
  }
  return tally;
}

interface PreparedRecord {
  id: string;
  type: string;
  sourceType: string;
  /** Absent for a deletion that names the record only. */
  full?: { content: NormalizedContent; checksum: string; contentKey: string };
}

const prepareJobs = (user: ProjectedUser, jobs: ValidatedRecord[][]): PreparedRecord[][] => jobs.map((records) => records.map((v) => prepare(user, v)));

function prepare(user: ProjectedUser, v: ValidatedRecord): PreparedRecord {
  if (v.kind === 'deletion') return { id: recordIdOf(user._id, v.source.type, v.log_id), type: v.type, sourceType: v.source.type };
  const { utc_offset, ...rest } = v.content;
  const content: NormalizedContent = { ...rest, ...resolveOffset(rest.start_time, utc_offset, user) };
  return {
    id: recordIdOf(user._id, content.source.type, content.log_id),
    type: content.type,
    sourceType: content.source.type,
    full: { content, ...checksumAndContentKey(user._id, content) },
  };
}

/** Counts a stored change into its (user, source, resource) availability stats. */
function countIn(stats: Map<string, AvailabilityStatsDoc>, doc: RecordDoc, wasLive: boolean, nowIso: string): void {
  const id = statsIdOf(doc.user_id, doc.source_type, doc.type);
  const isLive = doc.deleted_at === null;
  const cur = stats.get(id);
  const start = doc.payload.start_time;
  const end = doc.payload.end_time;
  const next: AvailabilityStatsDoc = cur
    ? { ...cur, records: Math.max(0, cur.records + (isLive ? 1 : 0) - (wasLive ? 1 : 0)), last_received_at: nowIso }
    : { _id: id, user_id: doc.user_id, kind: 'stats', source_type: doc.source_type, resource: doc.type, first_time: start, last_time: end, records: isLive ? 1 : 0, last_received_at: nowIso };
  if (isLive) {
    if (start < next.first_time) next.first_time = start;
    if (end > next.last_time) next.last_time = end;
  }
  stats.set(id, next);
}

/** The stats documents the batch's changes touched. */
function changedStats(stats: Map<string, AvailabilityStatsDoc>, changes: RecordDoc[]): AvailabilityStatsDoc[] {
  const ids = new Set(changes.map((d) => statsIdOf(d.user_id, d.source_type, d.type)));
  return [...ids].map((id) => stats.get(id)!).filter(Boolean);
}
