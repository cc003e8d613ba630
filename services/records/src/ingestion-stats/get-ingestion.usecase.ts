/**
 * The operator's "how much does this organization send": records stored per UTC day over a range,
 * every day of it listed (0 where nothing arrived). This process's not-yet-written counts are
 * written first, so a read after an ingestion here sees it; another replica's show up within its
 * flush interval.
 */
import { badRequest, notFound } from '@wellstream/errors';
import type { Clock } from '@wellstream/clock';
import type { IngestionCountRepository } from './ingestion-count.repository';
import { DEFAULT_INGESTION_DAYS, IngestionQuery, MAX_INGESTION_DAYS } from './get-ingestion.schema';

const DAY_MS = 86_400_000;

export interface IngestionStatsDeps {
  counts: IngestionCountRepository;
  /** Writes this process's pending counts. */
  flush(): Promise<void>;
  organizations: { find(organizationId: string): Promise<unknown> };
  clock: Clock;
}

export interface IngestionDay {
  date: string;
  records: number;
  created: number;
  updated: number;
  deleted: number;
}

export async function getIngestion(deps: IngestionStatsDeps, organizationId: string, query: IngestionQuery) {
  const end = query.end_date ?? deps.clock.now().toISOString().slice(0, 10);
  const start = query.start_date ?? new Date(Date.parse(end) - (DEFAULT_INGESTION_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  const days = Math.round((Date.parse(end) - Date.parse(start)) / DAY_MS) + 1;
  if (days < 1) throw badRequest('INVALID_RANGE', { start_date: ['start_date must not be after end_date'] });
  if (days > MAX_INGESTION_DAYS) throw badRequest('INVALID_RANGE', { end_date: [`at most ${MAX_INGESTION_DAYS} days from start_date to end_date`] });
  if (!(await deps.organizations.find(organizationId))) throw notFound('ORGANIZATION_NOT_FOUND', `No organization with id ${organizationId}.`);
  await deps.flush();
  const dates = Array.from({ length: days }, (_v, i) => new Date(Date.parse(start) + i * DAY_MS).toISOString().slice(0, 10));
  const stored = new Map((await deps.counts.days(organizationId, dates)).map((d) => [d.date, d]));
  const data: IngestionDay[] = dates.map((date) => {
    const d = stored.get(date);
    const created = d?.created ?? 0;
    const updated = d?.updated ?? 0;
    const deleted = d?.deleted ?? 0;
    return { date, records: created + updated + deleted, created, updated, deleted };
  });
  return { organization_id: organizationId, start_date: start, end_date: end, total: data.reduce((s, d) => s + d.records, 0), data };
}
