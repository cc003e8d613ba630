/**
 * A service's express route registered from its endpoint declaration (@wellstream/endpoints): the
 * method and the path come from the declaration, never written again in the service; then the
 * request checks in order (each a joi schema and the documented error of a request that fails it);
 * then the handler, with what the checks let through.
 */
import type { IRouter, Request, RequestHandler, Response } from 'express';
import { validate } from '@wellstream/errors';
import { route } from './create-service-app';

/** What registering needs of a declaration (the endpoints library's EndpointDeclaration has it). */
export interface DeclaredRoute {
  method: 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head';
  /** OpenAPI path template relative to /v2. */
  path: string;
}

/**
 * The express form of a path template: `/v2/organizations/:org_id/users`. A `$` (FHIR's operations,
 * `Patient/$export`) is escaped: express reads the path as a pattern, where `$` ends it.
 */
export function expressPath(declaration: Pick<DeclaredRoute, 'path'>): string {
  return `/v2${declaration.path.replace(/\$/g, '\\$').replace(/\{([^}]+)\}/g, ':$1')}`;
}

type ValidateOptions = NonNullable<Parameters<typeof validate>[2]>;

export interface RequestCheck {
  in: 'query' | 'body';
  schema: Parameters<typeof validate>[0];
  /** The answer to a request that fails the check: 400 (malformed) or 422 (invalid values). */
  kind: 'bad_request' | 'unprocessable';
  code: string;
  joi?: ValidateOptions['joi'];
}

/** What the checks let through, per part of the request (the last check's value for each part). */
export interface CheckedRequest<Query, Body> {
  query: Query;
  body: Body;
}

/**
 * The declaration's method and path with express handlers of the service's own (a body parser of
 * its own, errors answered as a page): for a route `endpointRoute`'s one JSON handler does not fit.
 */
export function declaredRoute(router: IRouter, declaration: DeclaredRoute, ...handlers: RequestHandler[]): void {
  const register = router[declaration.method].bind(router) as (path: string, ...handlers: RequestHandler[]) => void;
  register(expressPath(declaration), ...handlers);
}

export function endpointRoute<Query = unknown, Body = unknown>(
  router: IRouter,
  declaration: DeclaredRoute,
  checks: readonly RequestCheck[],
  handler: (req: Request, res: Response, checked: CheckedRequest<Query, Body>) => Promise<unknown> | unknown,
): void {
  declaredRoute(
    router,
    declaration,
    route(async (req, res) => {
      const checked: Record<RequestCheck['in'], unknown> = { query: req.query, body: req.body };
      // Each check reads the request as sent: a shape check (400) before a value check (422) of one body.
      for (const check of checks) checked[check.in] = validate(check.schema, req[check.in], { kind: check.kind, code: check.code, joi: check.joi });
      await handler(req, res, checked as unknown as CheckedRequest<Query, Body>);
    }),
  );
}
