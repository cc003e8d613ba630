/** Streams (consumer groups over the customer's events), their connections and the replay. */
import type { EventStream, EventStreamOptions } from '../events/event-stream';
import type { RequestOptions } from '../http-client';
import type { QueryParams, RequestBody, ResponseBody } from '../operation-types';
import type { Caller } from './operation-caller';
import { everyPage } from './paging';

export type ReplayParams = QueryParams<'replay'>;
export type StreamOperation = 'connectStream' | 'tailStream' | 'replay';

export class Streams {
  constructor(
    private readonly call: Caller,
    private readonly open: (operation: StreamOperation, path: Record<string, string> | undefined, query: Record<string, unknown> | undefined, options: EventStreamOptions) => EventStream,
  ) {}

  list(query?: QueryParams<'listStreams'>, options?: RequestOptions) {
    return this.call('listStreams', { query }, options);
  }
  /** Every stream of the customer, page after page (`limit` is the page size, default 100). */
  listAll(query: Omit<QueryParams<'listStreams'>, 'offset'> = {}, options?: RequestOptions): AsyncGenerator<ResponseBody<'listStreams'>['streams'][number]> {
    return everyPage((offset, limit) => this.list({ ...query, offset, limit }, options), (page) => page.streams, query.limit);
  }
  get(id: string, options?: RequestOptions) {
    return this.call('getStream', { path: { id } }, options);
  }
  create(body: RequestBody<'createStream'>, options?: RequestOptions) {
    return this.call('createStream', { body }, options);
  }
  /** Only the name of a stream can change; filters are fixed at creation. */
  rename(id: string, name: string, options?: RequestOptions) {
    return this.call('renameStream', { path: { id }, body: { name } }, options);
  }
  /** 409 (ConflictError) while clients are connected. */
  delete(id: string, options?: RequestOptions) {
    return this.call('deleteStream', { path: { id } }, options);
  }

  /**
   * Joins the stream's consumer group: `for await (const event of client.streams.connect(id))`.
   * Reconnects by itself with Last-Event-ID; stop with `options.signal`, `close()` or `break`.
   */
  connect(id: string, options: EventStreamOptions = {}): EventStream {
    return this.open('connectStream', { id }, undefined, options);
  }

  /**
   * Watches the stream read-only: its events (filters applied) from now, without joining its
   * consumer group, so its clients still get every event. A customer may hold only a few at once
   * (429 past them). Resumes like `connect`.
   */
  tail(id: string, options: EventStreamOptions = {}): EventStream {
    return this.open('tailStream', { id }, undefined, options);
  }

  /** The customer's last 30 days of events (filtered by `params`), then live ones. */
  replay(params: ReplayParams = {}, options: EventStreamOptions = {}): EventStream {
    return this.open('replay', undefined, params as Record<string, unknown>, options);
  }
}
