/**
 * What an endpoint is, written once: its method and path, the service that answers it, the
 * authentication the gateway applies, and the operation as published (parameters, request body,
 * responses by status). The gateway routes by these declarations and publishes /v2/openapi.json
 * from them; each service registers its routes at their paths (see the README beside this file).
 */

/** The deployable that answers an endpoint: a service, or the gateway itself (operator API). */
export type ServiceName = 'users' | 'records' | 'streams' | 'notifications' | 'rules' | 'sources';
export type EndpointOwner = ServiceName | 'gateway';

/**
 * developer: a developer token (rate-limited; the organization in the path must be its customer's);
 * admin: the operator token; public: no token (the path or the body carries its own credential).
 */
export type AuthKind = 'developer' | 'admin' | 'public';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** How the gateway routes and authenticates an endpoint (written beside its operation). */
export interface Routing {
  auth: AuthKind;
  /** The path parameter holding the organization the developer token must belong to. */
  organizationParam?: string;
  /**
   * Path parameters the routing tells apart by value: a request whose parameter is not one of
   * these values is not this endpoint (another declaration, or the owner of the longest declared
   * prefix, answers it).
   */
  pathValues?: Readonly<Record<string, readonly string[]>>;
}

/** An OpenAPI 3.1 operation object, as published. */
export interface OpenApiOperation {
  operationId: string;
  [field: string]: unknown;
}

export interface EndpointDeclaration extends Routing {
  /** Unique over the platform; the SDK's method name. */
  operationId: string;
  method: HttpMethod;
  /** OpenAPI path template relative to /v2 (`/organizations/{org_id}/users`); services see /v2 in front. */
  path: string;
  service: EndpointOwner;
  operation: OpenApiOperation;
  /** Parameters shared by every operation of the path (the path item's `parameters`). */
  pathParameters?: readonly unknown[];
}

/** A declared operation: the published operation with its routing beside it. */
export type DeclaredOperation = OpenApiOperation & Routing;
export type DeclaredPathItem = { parameters?: readonly unknown[] } & { [M in HttpMethod]?: DeclaredOperation };

/**
 * The declarations of one owner, written as the OpenAPI paths they publish (path → method →
 * operation), each operation carrying its routing (`auth`, …), which is not published.
 */
export function declareEndpoints(service: EndpointOwner, paths: Readonly<Record<string, DeclaredPathItem>>): EndpointDeclaration[] {
  return Object.entries(paths).flatMap(([path, item]) =>
    // In the order written: the published path item keeps it.
    (Object.keys(item).filter((key) => (HTTP_METHODS as readonly string[]).includes(key)) as HttpMethod[]).map((method) => {
      const { auth, organizationParam, pathValues, ...operation } = item[method] as DeclaredOperation;
      return { operationId: operation.operationId, method, path, service, auth, organizationParam, pathValues, operation, pathParameters: item.parameters };
    }),
  );
}

/**
 * A path prefix one service answers whole, for routing only (never published): every path that
 * starts with it and is not a longer declared template goes to `service`, its unknown sub-paths
 * included, whatever the values of its parameters.
 */
export interface PrefixDeclaration {
  /** Template relative to /v2, as in an EndpointDeclaration (`/marketplace/{token}/sources`). */
  prefix: string;
  service: ServiceName;
  auth: AuthKind;
}

export const declarePrefix = (service: ServiceName, prefix: string, auth: AuthKind): PrefixDeclaration => ({ prefix, service, auth });

/** The declaration of `operationId` among `declarations` (a service looks up its own). */
export function findEndpoint(declarations: readonly EndpointDeclaration[], operationId: string): EndpointDeclaration {
  const found = declarations.find((d) => d.operationId === operationId);
  if (!found) throw new Error(`No endpoint ${operationId} is declared`);
  return found;
}
