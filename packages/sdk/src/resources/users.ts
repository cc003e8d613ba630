/** Users of an organization (provisioning) and their records. */
import type { RequestOptions } from '../http-client';
import { ParameterError } from '../errors';
import type { QueryParams, RequestBody, ResponseBody } from '../operation-types';
import type { WithResponse } from '../rate-limit';
import type { Caller } from './operation-caller';
import { everyPage, recordWindows } from './paging';

export class Users {
  constructor(private readonly call: Caller) {}

  /** One page of the organization's users (`meta` has offset, limit, total). */
  list(orgId: string, query?: QueryParams<'listUsers'>, options?: RequestOptions) {
    return this.call('listUsers', { path: { org_id: orgId }, query }, options);
  }
  /** Every user of the organization, page after page (`for await (const user of ws.users.listAll(org))`; `limit` is the page size, default 100). */
  listAll(orgId: string, query: Omit<QueryParams<'listUsers'>, 'offset'> = {}, options?: RequestOptions): AsyncGenerator<ResponseBody<'listUsers'>['data'][number]> {
    return everyPage((offset, limit) => this.list(orgId, { ...query, offset, limit }, options), (page) => page.data, query.limit);
  }
  get(orgId: string, uid: string, options?: RequestOptions) {
    return this.call('getUser', { path: { org_id: orgId, uid } }, options);
  }
  create(orgId: string, body: RequestBody<'createUser'>, options?: RequestOptions) {
    return this.call('createUser', { path: { org_id: orgId }, body }, options);
  }
  update(orgId: string, uid: string, body: RequestBody<'updateUser'>, options?: RequestOptions) {
    return this.call('updateUser', { path: { org_id: orgId, uid }, body }, options);
  }
  delete(orgId: string, uid: string, options?: RequestOptions) {
    return this.call('deleteUser', { path: { org_id: orgId, uid } }, options);
  }
  /** A new marketplace token and URL; the earlier ones stop working. */
  refreshMarketplace(orgId: string, uid: string, options?: RequestOptions) {
    return this.call('refreshMarketplace', { path: { org_id: orgId, uid } }, options);
  }
  /** A new mobile token (a lost phone); the old one answers 401 from the moment this resolves. */
  rotateMobileToken(orgId: string, uid: string, options?: RequestOptions) {
    return this.call('rotateMobileToken', { path: { org_id: orgId, uid } }, options);
  }
}

const RECORD_OPERATIONS = {
  measurements: 'listMeasurements',
  nutrition: 'listNutrition',
  sleep: 'listSleep',
  summaries: 'listSummaries',
  workouts: 'listWorkouts',
  intraday: 'listIntraday',
} as const;

export type RecordType = keyof typeof RECORD_OPERATIONS;
export const RECORD_TYPES = Object.keys(RECORD_OPERATIONS) as RecordType[];
type RecordQuery = QueryParams<'listMeasurements'>;

export class Records {
  constructor(private readonly call: Caller) {}

  /** A user's records of one type between start_date and end_date (at most 30 days; default today, UTC). */
  list<T extends RecordType>(orgId: string, uid: string, type: T, query?: RecordQuery, options?: RequestOptions): Promise<WithResponse<ResponseBody<(typeof RECORD_OPERATIONS)[T]>>> {
    const id = RECORD_OPERATIONS[type] as (typeof RECORD_OPERATIONS)[T];
    if (!id) throw new ParameterError(`unknown record type "${String(type)}": one of ${RECORD_TYPES.join(', ')}`);
    return this.call(id, { path: { org_id: orgId, uid }, query } as never, options) as never;
  }
  /**
   * A user's records of one type over any range of days: the range is cut into the API's 30-day
   * windows, asked one after the other (`for await (const r of ws.records.listRange(org, uid, 'sleep', { start_date, end_date }))`).
   */
  async *listRange<T extends RecordType>(
    orgId: string,
    uid: string,
    type: T,
    query: Omit<RecordQuery, 'start_date' | 'end_date'> & { start_date: string | Date; end_date: string | Date },
    options?: RequestOptions,
  ): AsyncGenerator<ResponseBody<(typeof RECORD_OPERATIONS)[T]>['data'][number]> {
    let windows: { start_date: string; end_date: string }[];
    try {
      windows = recordWindows(query.start_date, query.end_date);
    } catch (err) {
      throw new ParameterError((err as Error).message);
    }
    for (const window of windows) {
      const page = await this.list(orgId, uid, type, { ...query, ...window }, options);
      yield* (page as { data: ResponseBody<(typeof RECORD_OPERATIONS)[T]>['data'] }).data;
    }
  }
  /** For each connected source and resource: first and last record held, last sync, backfill state, whether it is expected. */
  availability(orgId: string, uid: string, options?: RequestOptions) {
    return this.call('getAvailability', { path: { org_id: orgId, uid } }, options);
  }
  /** The organization's ranking of sources (per resource and per metric) that `merged=true` reads follow. */
  getSourcePriority(orgId: string, options?: RequestOptions) {
    return this.call('getSourcePriority', { path: { org_id: orgId } }, options);
  }
  setSourcePriority(orgId: string, body: RequestBody<'putSourcePriority'>, options?: RequestOptions) {
    return this.call('putSourcePriority', { path: { org_id: orgId }, body }, options);
  }
}
