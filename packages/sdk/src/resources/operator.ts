/**
 * Calls made with other credentials than the developer token: the operator API (the client's
 * token is then the admin token), mobile ingestion (the user's mobile token) and the marketplace
 * (its token is in the path; these are what a user's browser calls).
 */
import type { RequestOptions } from '../http-client';
import type { QueryParams, RequestBody, ResponseBody } from '../operation-types';
import type { Caller } from './operation-caller';
import { everyPage } from './paging';

type Item<K extends 'listCustomers' | 'listOrganizations' | 'listTokens' | 'listAuditLog'> = ResponseBody<K>['data'][number];

export class Admin {
  constructor(private readonly call: Caller) {}

  createCustomer(body: RequestBody<'createCustomer'>, options?: RequestOptions) {
    return this.call('createCustomer', { body }, options);
  }
  deleteCustomer(customerId: string, options?: RequestOptions) {
    return this.call('deleteCustomer', { path: { customer_id: customerId } }, options);
  }
  createOrganization(customerId: string, body: RequestBody<'createOrganization'>, options?: RequestOptions) {
    return this.call('createOrganization', { path: { customer_id: customerId }, body }, options);
  }
  issueToken(customerId: string, body: RequestBody<'issueToken'> = {}, options?: RequestOptions) {
    return this.call('issueToken', { path: { customer_id: customerId }, body }, options);
  }
  revokeToken(token: string, options?: RequestOptions) {
    return this.call('revokeToken', { path: { token } }, options);
  }
  updateOrganizationSettings(orgId: string, body: RequestBody<'updateOrganizationSettings'>, options?: RequestOptions) {
    return this.call('updateOrganizationSettings', { path: { org_id: orgId }, body }, options);
  }
  listCustomers(query?: QueryParams<'listCustomers'>, options?: RequestOptions) {
    return this.call('listCustomers', { query }, options);
  }
  /** Every customer, page after page (`limit` is the page size, default 100). */
  listAllCustomers(query: Omit<QueryParams<'listCustomers'>, 'offset'> = {}, options?: RequestOptions): AsyncGenerator<Item<'listCustomers'>> {
    return everyPage((offset, limit) => this.listCustomers({ ...query, offset, limit }, options), (page) => page.data, query.limit);
  }
  getCustomer(customerId: string, options?: RequestOptions) {
    return this.call('getCustomer', { path: { customer_id: customerId } }, options);
  }
  listOrganizations(customerId: string, query?: QueryParams<'listOrganizations'>, options?: RequestOptions) {
    return this.call('listOrganizations', { path: { customer_id: customerId }, query }, options);
  }
  /** Every organization of a customer, page after page. */
  listAllOrganizations(customerId: string, query: Omit<QueryParams<'listOrganizations'>, 'offset'> = {}, options?: RequestOptions): AsyncGenerator<Item<'listOrganizations'>> {
    return everyPage((offset, limit) => this.listOrganizations(customerId, { ...query, offset, limit }, options), (page) => page.data, query.limit);
  }
  getOrganization(orgId: string, options?: RequestOptions) {
    return this.call('getOrganization', { path: { org_id: orgId } }, options);
  }
  /** A customer's tokens by prefix (never in full), each with its requests this hour and the last. */
  listTokens(customerId: string, query?: QueryParams<'listTokens'>, options?: RequestOptions) {
    return this.call('listTokens', { path: { customer_id: customerId }, query }, options);
  }
  /** Every token of a customer (by prefix), page after page. */
  listAllTokens(customerId: string, query: Omit<QueryParams<'listTokens'>, 'offset'> = {}, options?: RequestOptions): AsyncGenerator<Item<'listTokens'>> {
    return everyPage((offset, limit) => this.listTokens(customerId, { ...query, offset, limit }, options), (page) => page.data, query.limit);
  }
  /** `tokenId` is a token's `id` (its sha256) as listTokens shows it. */
  getToken(customerId: string, tokenId: string, options?: RequestOptions) {
    return this.call('getToken', { path: { customer_id: customerId, token_id: tokenId } }, options);
  }
  /** Records stored per UTC day (default: the last 30 days). */
  getIngestion(orgId: string, query?: QueryParams<'adminGetIngestion'>, options?: RequestOptions) {
    return this.call('adminGetIngestion', { path: { org_id: orgId }, query }, options);
  }
  /** Connected sources per source type over the organization's users. */
  countSources(orgId: string, options?: RequestOptions) {
    return this.call('adminCountOrganizationSources', { path: { org_id: orgId } }, options);
  }
  suspendUser(orgId: string, uid: string, options?: RequestOptions) {
    return this.call('suspendUser', { path: { org_id: orgId, uid } }, options);
  }
  unsuspendUser(orgId: string, uid: string, options?: RequestOptions) {
    return this.call('unsuspendUser', { path: { org_id: orgId, uid } }, options);
  }
  getSourcePriority(orgId: string, options?: RequestOptions) {
    return this.call('adminGetSourcePriority', { path: { org_id: orgId } }, options);
  }
  setSourcePriority(orgId: string, body: RequestBody<'adminPutSourcePriority'>, options?: RequestOptions) {
    return this.call('adminPutSourcePriority', { path: { org_id: orgId }, body }, options);
  }
  /** Starts a special-request export of everything held about the user (any status); GET it until `ready`, then fetch its `download_url`. */
  requestUserExport(orgId: string, uid: string, options?: RequestOptions) {
    return this.call('requestUserExport', { path: { org_id: orgId, uid } }, options);
  }
  getUserExport(orgId: string, uid: string, exportId: string, options?: RequestOptions) {
    return this.call('getUserExport', { path: { org_id: orgId, uid, export_id: exportId } }, options);
  }
  /** Erases the user's data everywhere now; again: `already_erased: true`. */
  eraseUser(orgId: string, uid: string, options?: RequestOptions) {
    return this.call('eraseUser', { path: { org_id: orgId, uid } }, options);
  }
  listAuditLog(query?: QueryParams<'listAuditLog'>, options?: RequestOptions) {
    return this.call('listAuditLog', { query }, options);
  }
  /** Every audit entry (filters as `listAuditLog`), page after page. */
  listAllAuditLog(query: Omit<QueryParams<'listAuditLog'>, 'offset'> = {}, options?: RequestOptions): AsyncGenerator<Item<'listAuditLog'>> {
    return everyPage((offset, limit) => this.listAuditLog({ ...query, offset, limit }, options), (page) => page.data, query.limit);
  }
}

export class Mobile {
  constructor(private readonly call: Caller) {}

  /** Stores records for the user whose mobile token this is (user.mobile.token). */
  ingest(mobileToken: string, body: RequestBody<'ingestMobileRecords'>, options?: RequestOptions) {
    return this.call('ingestMobileRecords', { query: { token: mobileToken }, body }, options);
  }
  /** Connects a phone store (apple_health, health_connect, samsung_health) for the user, as the phone app does. */
  connectSource(mobileToken: string, sourceType: 'apple_health' | 'health_connect' | 'samsung_health', options?: RequestOptions) {
    return this.call('connectMobileSource', { path: { type: sourceType }, query: { token: mobileToken } }, options);
  }
}

export class Marketplace {
  constructor(private readonly call: Caller) {}

  /** The marketplace as JSON (user.marketplace.token). */
  open(marketplaceToken: string, options?: RequestOptions) {
    return this.call('openMarketplace', { path: { token: marketplaceToken } }, options);
  }
  /**
   * Connects the demo source or a phone app's source. A provider source (Oura, Withings, Dexcom)
   * answers 303 to the provider's sign-in page: that is the user's browser's journey, not an API call.
   */
  connect(marketplaceToken: string, sourceType: string, options?: RequestOptions) {
    return this.call('connectSource', { path: { token: marketplaceToken, type: sourceType } }, options);
  }
  disconnect(marketplaceToken: string, sourceType: string, options?: RequestOptions) {
    return this.call('disconnectSource', { path: { token: marketplaceToken, type: sourceType } }, options);
  }
  chooseTimezone(marketplaceToken: string, timezone: string, options?: RequestOptions) {
    return this.call('chooseTimezone', { path: { token: marketplaceToken }, body: { timezone } }, options);
  }
}
