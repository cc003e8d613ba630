/** Push: an organization's notification target and the batches delivered to it. */
import type { RequestOptions } from '../http-client';
import type { QueryParams, RequestBody, ResponseBody } from '../operation-types';
import type { Caller } from './operation-caller';
import { everyPage } from './paging';

export class Notifications {
  constructor(private readonly call: Caller) {}

  getTarget(orgId: string, options?: RequestOptions) {
    return this.call('getNotificationTarget', { path: { org_id: orgId } }, options);
  }
  /** Where new records are POSTed, signed with `secret` when one is given. */
  setTarget(orgId: string, body: RequestBody<'configureNotificationTarget'>, options?: RequestOptions) {
    return this.call('configureNotificationTarget', { path: { org_id: orgId }, body }, options);
  }
  deleteTarget(orgId: string, options?: RequestOptions) {
    return this.call('deleteNotificationTarget', { path: { org_id: orgId } }, options);
  }
  listBatches(orgId: string, query?: QueryParams<'listNotificationBatches'>, options?: RequestOptions) {
    return this.call('listNotificationBatches', { path: { org_id: orgId }, query }, options);
  }
  /** Every push batch of the organization (filters as `listBatches`), page after page (`limit` is the page size, default 100). */
  listAllBatches(orgId: string, query: Omit<QueryParams<'listNotificationBatches'>, 'offset'> = {}, options?: RequestOptions): AsyncGenerator<ResponseBody<'listNotificationBatches'>['data'][number]> {
    return everyPage((offset, limit) => this.listBatches(orgId, { ...query, offset, limit }, options), (page) => page.data, query.limit);
  }
  getBatch(orgId: string, batchId: string, options?: RequestOptions) {
    return this.call('getNotificationBatch', { path: { org_id: orgId, id: batchId } }, options);
  }
  redeliver(orgId: string, batchId: string, options?: RequestOptions) {
    return this.call('redeliverNotificationBatch', { path: { org_id: orgId, id: batchId } }, options);
  }
}

/** Adherence rules of a user (the feature is off unless the operator enables it). */
export class Rules {
  constructor(private readonly call: Caller) {}

  list(orgId: string, uid: string, options?: RequestOptions) {
    return this.call('listRules', { path: { org_id: orgId, uid } }, options);
  }
  get(orgId: string, uid: string, ruleId: string, options?: RequestOptions) {
    return this.call('getRule', { path: { org_id: orgId, uid, rule_id: ruleId } }, options);
  }
  create(orgId: string, uid: string, body: RequestBody<'createRule'>, options?: RequestOptions) {
    return this.call('createRule', { path: { org_id: orgId, uid }, body }, options);
  }
  update(orgId: string, uid: string, ruleId: string, body: RequestBody<'updateRule'>, options?: RequestOptions) {
    return this.call('updateRule', { path: { org_id: orgId, uid, rule_id: ruleId }, body }, options);
  }
  delete(orgId: string, uid: string, ruleId: string, options?: RequestOptions) {
    return this.call('deleteRule', { path: { org_id: orgId, uid, rule_id: ruleId } }, options);
  }
}
