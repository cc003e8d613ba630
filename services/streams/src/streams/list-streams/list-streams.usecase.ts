/**
 * Listing a customer's streams. A customer has at most 5, so filtering, sorting and paging happen
 * in memory over one small query (the store port has no pattern matching on purpose).
 */
import { toStreamView, StreamDoc, StreamView } from '../stream';
import type { StreamDeps } from '../stream-deps';
import { ListStreamsQuery, parseNameQuery } from './list-streams.schema';

export interface StreamList {
  streams: StreamView[];
  meta: { total: number; sort: string; offset: number; limit: number };
}

function compare(sort: ListStreamsQuery['sort']): (a: StreamDoc, b: StreamDoc) => number {
  const field = sort.replace('-', '') as 'created_at' | 'updated_at';
  const dir = sort.startsWith('-') ? -1 : 1;
  // Ids sort by creation time too, which settles equal timestamps.
  return (a, b) => dir * (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
}

export async function listStreams(deps: StreamDeps, customerId: string, query: ListStreamsQuery): Promise<StreamList> {
  let docs = await deps.repo.listOfCustomer(customerId);
  if (query.q !== undefined) {
    const { exact, term } = parseNameQuery(query.q);
    const lower = term.toLowerCase();
    docs = docs.filter((d) => (exact ? d.name === term : d.name.toLowerCase().includes(lower)));
  }
  docs.sort(compare(query.sort));
  const page = docs.slice(query.offset, query.offset + query.limit);
  const streams = await Promise.all(page.map(async (d) => toStreamView(d, await deps.members.count(d.group))));
  return { streams, meta: { total: docs.length, sort: query.sort, offset: query.offset, limit: query.limit } };
}
