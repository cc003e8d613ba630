/**
 * Which service answers which path, and what authentication it needs: derived from the endpoint
 * declarations (@wellstream/endpoints), never listed here. Paths keep their /v2 prefix on the way
 * to the service.
 */
import { createRouter, ENDPOINTS, ROUTE_PREFIXES, Route, RouteMatch as DeclaredMatch, ServiceName } from '@wellstream/endpoints';
import { badRequest } from '@wellstream/errors';

export type { AuthKind, ServiceName } from '@wellstream/endpoints';

export type RouteRule = Route & { service: ServiceName };

export interface RouteMatch {
  rule: RouteRule;
  /** The organization id as it appears in the path (still percent-encoded), when the path names one. */
  organizationSegment?: string;
}

const router = createRouter(ENDPOINTS, ROUTE_PREFIXES);

/** Only matches; decoding the organization id (which can fail) is the pipeline's, so errors answer in one place. */
export function matchRoute(path: string): RouteMatch | undefined {
  const m: DeclaredMatch | undefined = router.match(path);
  // The router leaves the gateway's own paths unmatched, so what it names is a service.
  return m && { rule: m.route as RouteRule, organizationSegment: m.organizationSegment };
}

/** A path segment that is not valid percent-encoding (`%E0%A4%A`) is the client's mistake: 400, not a URIError → 500. */
export function decodeOrganizationId(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest('MALFORMED_PATH', 'The request path is not valid percent-encoding.');
  }
}
