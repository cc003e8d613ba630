/**
 * The record endpoints: one user's live records of one type whose LOCAL start day (start_time +
 * utc_offset) lies in [start_date, end_date], sorted by start_time. Days older than the
 * organization's history (history_days, default 183) are not served.
 */
import { RESOURCE_PATHS, SOURCE_TYPES } from '@wellstream/catalog';
import { DEFAULT_HISTORY_DAYS } from '@wellstream/contracts';
import { validate } from '@wellstream/errors';
import type { RecordDoc, RecordPayload } from '../record';
import { invalidQuery, unknownSource, userNotFound } from '../record.errors';
import type { RecordQuery, RecordRepository } from '../record.repository';
import { addDays, daysBetween } from '@wellstream/clock';
import type { UserProjectionRepository } from '../../users/user-projection.repository';
import { listRecordsQuerySchema, MAX_RANGE_DAYS } from './list-records.schema';
import type { Clock } from '@wellstream/clock';
import { SourceRanking } from '../../priority/source-priority';
import type { SourcePriorityRepository } from '../../priority/source-priority.repository';
import { settingOf } from '../../priority/source-priority.usecase';
import { mergeDays, mergeEvents, mergeSeries } from '../merge/merge-records';

export interface ListRecordsDeps {
  records: RecordRepository;
  users: UserProjectionRepository;
  /** The organization's settings as records projects them (how many days of history it serves). */
  organizations: { find(organizationId: string): Promise<{ history_days: number } | null> };
  clock: Clock;
  /** Organizations' source priority, for `merged=true`. */
  priorities: SourcePriorityRepository;
}

export interface ListRecordsRequest {
  customerId: string;
  organizationId: string;
  uid: string;
  /** The plural path segment: measurements, nutrition, sleep, summaries, workouts, intraday. */
  objectType: string;
  query: unknown;
}

/** Records per page of a read: small enough that reading and encoding one holds the process ~1 ms. */
export const RECORDS_PAGE_SIZE = 200;

/**
 * Checks the request (every error is thrown before anything is read), then the matching records
 * in pages, so the caller can write each page and let other work run in between.
 */
export async function listRecords(deps: ListRecordsDeps, req: ListRecordsRequest): Promise<AsyncIterable<object[]>> {
  const type = RESOURCE_PATHS[req.objectType];
  if (!type) throw userNotFound(req.uid);
  const q = validate(listRecordsQuerySchema, req.query, { code: 'INVALID_QUERY' });
  const today = deps.clock.now().toISOString().slice(0, 10);
  const start = q.start_date ?? today;
  const end = q.end_date ?? today;
  if (end < start) throw invalidQuery({ end_date: ['end_date must not be before start_date'] });
  if (daysBetween(start, end) > MAX_RANGE_DAYS) throw invalidQuery({ end_date: [`the range from start_date to end_date is at most ${MAX_RANGE_DAYS} days`] });
  let sources: string[] | undefined;
  if (q.source !== undefined && q.source.trim() !== '') {
    sources = [...new Set(q.source.split(',').map((s) => s.trim()).filter(Boolean))];
    const unknown = sources.filter((s) => !SOURCE_TYPES.includes(s));
    if (unknown.length) throw unknownSource(unknown);
  }
  const user = await deps.users.byUid(req.organizationId, req.uid);
  if (!user || user.customer_id !== req.customerId) throw userNotFound(req.uid);
  const historyDays = (await deps.organizations.find(req.organizationId))?.history_days ?? DEFAULT_HISTORY_DAYS;
  const earliest = addDays(today, -historyDays);
  const from = start < earliest ? earliest : start;
  if (from > end) return emptyPages();
  if (q.merged === 'true') return mergedPages(deps, { userId: user._id, type, fromDate: from, toDate: end, sources }, req.organizationId);
  return payloadsOf(deps.records.findPages({ userId: user._id, type, fromDate: from, toDate: end, sources }, RECORDS_PAGE_SIZE));
}

async function* payloadsOf(pages: AsyncIterable<RecordDoc[]>): AsyncIterable<RecordPayload[]> {
  for await (const page of pages) yield page.map((d) => d.payload);
}

async function* emptyPages(): AsyncIterable<RecordPayload[]> {}

/**
 * `merged=true`: the range's records of every source (or of the `source` list), merged by the
 * organization's source priority, then written in pages like a plain read. A night's sleep may
 * start after midnight, so sleeps are read one local day further.
 */
async function mergedPages(deps: ListRecordsDeps, q: RecordQuery, organizationId: string): Promise<AsyncIterable<object[]>> {
  const ranking = new SourceRanking(await settingOf(deps, organizationId));
  const docs: RecordDoc[] = [];
  const read = q.type === 'sleep' ? { ...q, toDate: addDays(q.toDate, 1) } : q;
  for await (const page of deps.records.findPages(read, RECORDS_PAGE_SIZE)) docs.push(...page);
  let merged: object[];
  if (q.type === 'summary' || q.type === 'sleep') merged = mergeDays(q.type, docs, ranking, q.fromDate, q.toDate);
  else if (q.type === 'intraday') merged = mergeSeries(docs, ranking);
  else merged = mergeEvents(q.type, docs, ranking);
  return inPages(merged);
}

async function* inPages(items: object[]): AsyncIterable<object[]> {
  for (let i = 0; i < items.length; i += RECORDS_PAGE_SIZE) yield items.slice(i, i + RECORDS_PAGE_SIZE);
}
