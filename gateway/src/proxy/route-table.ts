/**
 * Which service answers which path, and what authentication it needs. Order matters: the first
 * match wins. Paths keep their /v2 prefix on the way to the service.
 */
import { PROVIDER_SOURCE_TYPES, RESOURCE_PATHS } from '@wellstream/catalog';
import { badRequest } from '@wellstream/errors';

export type ServiceName = 'users' | 'records' | 'streams' | 'notifications' | 'rules' | 'sources';
export type AuthKind = 'developer' | 'admin' | 'public';

export interface RouteRule {
  pattern: RegExp;
  service: ServiceName;
  auth: AuthKind;
  /** Index of the capture group holding the organization id, when the path names one. */
  orgGroup?: number;
}

const ORG = '/v2/organizations/([^/]+)';
const RECORD_PATHS = `(?:${Object.keys(RESOURCE_PATHS).join('|')})`;

export const ROUTES: RouteRule[] = [
  { pattern: new RegExp(`^${ORG}/users/[^/]+/${RECORD_PATHS}/?$`), service: 'records', auth: 'developer', orgGroup: 1 },
  // Records owns what it merges by (source priority) and what it holds per source (availability).
  { pattern: new RegExp(`^${ORG}/users/[^/]+/availability/?$`), service: 'records', auth: 'developer', orgGroup: 1 },
  { pattern: new RegExp(`^${ORG}/source_priority/?$`), service: 'records', auth: 'developer', orgGroup: 1 },
  { pattern: new RegExp(`^${ORG}/users/[^/]+/rules(?:/[^/]+)?/?$`), service: 'rules', auth: 'developer', orgGroup: 1 },
  { pattern: new RegExp(`^${ORG}/users(?:/.*)?$`), service: 'users', auth: 'developer', orgGroup: 1 },
  { pattern: new RegExp(`^${ORG}/(?:notification_target|notifications)(?:/.*)?$`), service: 'notifications', auth: 'developer', orgGroup: 1 },
  { pattern: /^\/v2\/(?:streams|replay)(?:\/.*)?$/, service: 'streams', auth: 'developer' },
  { pattern: /^\/v2\/mobile\/.*$/, service: 'records', auth: 'public' },
  // Provider sources connect through OAuth, which the sources service owns; the rest of the page is users'.
  { pattern: new RegExp(`^/v2/marketplace/[^/]+/sources/(?:${PROVIDER_SOURCE_TYPES.join('|')})/(?:connect|reconnect|disconnect)$`), service: 'sources', auth: 'public' },
  { pattern: /^\/v2\/marketplace\/.*$/, service: 'users', auth: 'public' },
  // Providers call these (the browser's return from consent, notifications): no developer token, no rate limit.
  { pattern: /^\/v2\/sources\/[^/]+\/(?:callback|webhook)$/, service: 'sources', auth: 'public' },
  // Operator reads owned by services: records counts what it stores, users holds each user's sources.
  { pattern: /^\/v2\/admin\/organizations\/[^/]+\/ingestion$/, service: 'records', auth: 'admin' },
  { pattern: /^\/v2\/admin\/organizations\/[^/]+\/sources$/, service: 'users', auth: 'admin' },
  { pattern: /^\/v2\/admin\/organizations\/([^/]+)\/users\/[^/]+\/(?:suspend|unsuspend)$/, service: 'users', auth: 'admin' },
  { pattern: /^\/v2\/admin\/organizations\/[^/]+\/source_priority$/, service: 'records', auth: 'admin' },
  // The data lifecycle (issue 32): the users service runs exports, erasures and keeps the audit log.
  { pattern: /^\/v2\/admin\/organizations\/[^/]+\/users\/[^/]+\/(?:exports(?:\/[^/]+)?|erasure)$/, service: 'users', auth: 'admin' },
  { pattern: /^\/v2\/admin\/audit_log$/, service: 'users', auth: 'admin' },
  // An export's file: the signed, short-lived link is the credential (no token, no rate limit).
  { pattern: /^\/v2\/exports\/[^/]+\/download$/, service: 'users', auth: 'public' },
];

export interface RouteMatch {
  rule: RouteRule;
  /** The organization id as it appears in the path (still percent-encoded), when the path names one. */
  organizationSegment?: string;
}

/** Only matches; decoding the organization id (which can fail) is the pipeline's, so errors answer in one place. */
export function matchRoute(path: string): RouteMatch | undefined {
  for (const rule of ROUTES) {
    const m = rule.pattern.exec(path);
    if (m) return { rule, organizationSegment: rule.orgGroup ? m[rule.orgGroup] : undefined };
  }
  return undefined;
}

/** A path segment that is not valid percent-encoding (`%E0%A4%A`) is the client's mistake: 400, not a URIError → 500. */
export function decodeOrganizationId(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest('MALFORMED_PATH', 'The request path is not valid percent-encoding.');
  }
}
