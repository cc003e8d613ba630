/**
 * Reading more than one answer holds: every page of a list, and records over any range of days
 * cut into the API's 30-day windows. Each is an async iterator that asks for the next page only
 * when the previous one has been read, so a `break` stops the requests too.
 */

/** Page size of the `listAll…` iterators when the query gives no `limit` (the API's largest). */
export const DEFAULT_PAGE_SIZE = 100;

/**
 * Every item of an offset/limit list, page after page, until `meta.total` is reached or a page is
 * short. `items` picks the page's array (`data` in most lists, `streams` in the stream list).
 */
export async function* everyPage<P extends { meta: { total: number } }, T>(fetchPage: (offset: number, limit: number) => Promise<P>, items: (page: P) => T[], pageSize = DEFAULT_PAGE_SIZE): AsyncGenerator<T> {
  for (let offset = 0; ; ) {
    const page = await fetchPage(offset, pageSize);
    const got = items(page);
    yield* got;
    offset += got.length;
    if (got.length === 0 || got.length < pageSize || offset >= page.meta.total) return;
  }
}

/** Every resource of a FHIR searchset, following its `next` links (an opaque `_page` position) until there is none. */
export async function* everyBundlePage<R>(fetchPage: (page: string | undefined) => Promise<{ entry?: { resource?: R }[]; link?: { relation?: string; url?: string }[] }>): AsyncGenerator<R> {
  for (let position: string | undefined; ; ) {
    const bundle = await fetchPage(position);
    for (const e of bundle.entry ?? []) if (e.resource !== undefined) yield e.resource;
    const next = bundle.link?.find((l) => l.relation === 'next')?.url;
    const following = next ? (new URL(next, 'http://next.invalid').searchParams.get('_page') ?? undefined) : undefined;
    if (!following || following === position) return;
    position = following;
  }
}

/** The API's longest range of days per record request. */
export const MAX_RECORD_DAYS = 30;
const DAY_MS = 86_400_000;

const dayOf = (value: string | Date, name: string): number => {
  const text = value instanceof Date ? value.toISOString().slice(0, 10) : value;
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(ms)) throw new RangeError(`${name} must be a date YYYY-MM-DD or a Date, got "${String(value)}"`);
  return ms;
};
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** [start, end] days (inclusive) cut into consecutive windows of at most MAX_RECORD_DAYS days. */
export function recordWindows(start: string | Date, end: string | Date): { start_date: string; end_date: string }[] {
  const from = dayOf(start, 'start_date');
  const to = dayOf(end, 'end_date');
  const windows: { start_date: string; end_date: string }[] = [];
  for (let s = from; s <= to; s += MAX_RECORD_DAYS * DAY_MS) windows.push({ start_date: isoDay(s), end_date: isoDay(Math.min(to, s + (MAX_RECORD_DAYS - 1) * DAY_MS)) });
  return windows;
}
