/**
 * What an endpoint is, written once: its method and path, the service that answers it and the
 * authentication the gateway applies. The gateway routes by these declarations; the published
 * OpenAPI document and each service's routes come from them (see the README beside this file).
 */

/** The deployable that answers an endpoint: a service, or the gateway itself (operator API). */
export type ServiceName = 'users' | 'records' | 'streams' | 'notifications' | 'rules' | 'sources';
export type EndpointOwner = ServiceName | 'gateway';

/**
 * developer: a developer token (rate-limited; the organization in the path must be its customer's);
 * admin: the operator token; public: no token (the path or the body carries its own credential).
 */
export type AuthKind = 'developer' | 'admin' | 'public';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head';

export interface EndpointDeclaration {
  /** Unique over the platform; the OpenAPI operationId and the SDK's method name. */
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template relative to /v2 (`/organizations/{org_id}/users`); services see /v2 in front. */
  path: string;
  service: EndpointOwner;
  auth: AuthKind;
  /** The path parameter holding the organization the developer token must belong to. */
  organizationParam?: string;
  /**
   * Path parameters the routing tells apart by value: a request whose parameter is not one of
   * these values is not this endpoint (another declaration, or the owner of the longest declared
   * prefix, answers it).
   */
  pathValues?: Record<string, readonly string[]>;
  /** Requests whose path parameter is one of `values` are answered by `service` instead. */
  delegate?: { param: string; values: readonly string[]; service: ServiceName };
}

export function endpoints(service: EndpointOwner, list: readonly Omit<EndpointDeclaration, 'service'>[]): EndpointDeclaration[] {
  return list.map((e) => ({ ...e, service }));
}

/** The express form of a path template: `/v2/organizations/:org_id/users`. */
export function expressPath(declaration: Pick<EndpointDeclaration, 'path'>): string {
  return `/v2${declaration.path.replace(/\{([^}]+)\}/g, ':$1')}`;
}
