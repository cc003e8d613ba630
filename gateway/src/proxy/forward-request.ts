/**
 * The gateway's path for every request routed to a service, on node's request and response: the
 * request id and log line, metrics, the pipeline, the signed caller, then the service's handler in
 * this process or the proxy. Anything else (health, metrics, docs, the operator API, unknown
 * paths) goes to the gateway's express app.
 *
 * Why not express: the gateway forwards nearly every request, and express's per-request work
 * (prototype swaps, the router's walk over every layer, a closure per `next`) cost about as
 * much as the checks themselves (bench/gateway.bench.mjs, README).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFound } from '@wellstream/errors';
import { answerError, answerFhirError, isFhirPath, routeTemplate, ServiceMetrics, startRequest } from '@wellstream/http';
import { Logger, runWithRequestContext } from '@wellstream/logging';
import type { InProcessServices, RequestHandlerOrListener } from './in-process-services';
import { matchRoute, RouteMatch } from './route-table';
import type { ServiceProxy } from './service-proxy';

/** Clears and sets the caller headers, or rejects with the error to answer (auth/gateway-pipeline.ts). */
export type GatewayPipeline = (req: IncomingMessage, res: ServerResponse, match: RouteMatch) => Promise<void>;

export function forwardRequests(
  deps: { logger: Logger; metrics?: ServiceMetrics; pipeline: GatewayPipeline; sign: (req: IncomingMessage) => void; inProcess: InProcessServices; proxy: ServiceProxy },
  gatewayOwn: RequestHandlerOrListener,
): RequestHandlerOrListener {
  const { logger, metrics, pipeline, sign, inProcess, proxy } = deps;

  const forward = async (req: IncomingMessage, res: ServerResponse, match: RouteMatch) => {
    await pipeline(req, res, match);
    // An undeclared FHIR path would reach whichever service owns the nearest template (users, for
    // /organizations/{org_id}) and get its JSON 404; the FHIR server's is an OperationOutcome.
    if (isFhirPath(pathOf(req.url)) && (!match.rule.template.includes('/fhir/') || !matchRoute(pathOf(req.url)))) throw notFound('FHIR_NOT_SUPPORTED', `${req.method} ${pathOf(req.url)} is not supported by this FHIR server (see its metadata).`);
    sign(req);
    const local = inProcess[match.rule.service];
    // A service's app answers everything itself (its own 404 and errors); `next` is a safety net.
    if (local) local(req, res, (err) => answer(req, res, err ?? notFound('ROUTE_NOT_FOUND', `No route for ${req.method} ${pathOf(req.url)}.`)));
    else proxy(req, res, match.rule.service);
  };

  return (req, res, next) => {
    const path = pathOf(req.url);
    const match = matchRoute(path) ?? fhirBaseMatch(path);
    if (!match) return gatewayOwn(req, res, next);
    const requestId = startRequest(logger, req, res);
    metrics?.track(req.method ?? '', res, () => routeTemplate(path));
    runWithRequestContext({ requestId }, () => void forward(req, res, match).catch((err: unknown) => answer(req, res, err)));
  };

  // The FHIR API's paths answer the gateway's own errors (401, 429, 503) as FHIR too.
  function answer(req: IncomingMessage, res: ServerResponse, err: unknown) {
    if (isFhirPath(pathOf(req.url))) answerFhirError(res, err, logger);
    else answerError(res, err, logger);
  }
}

/**
 * An undeclared path under an organization's FHIR base: checked like the FHIR API's own paths
 * (token, rate limit, organization) by the route of its base, then answered 404 (forward).
 */
function fhirBaseMatch(path: string): RouteMatch | undefined {
  const base = /^\/v2\/organizations\/([^/]+)\/fhir(?:\/|$)/.exec(path);
  return base ? matchRoute(`/v2/organizations/${base[1]}/fhir/metadata`) : undefined;
}

/** The path of an origin-form request target, as express's req.path (no decoding). */
function pathOf(url: string | undefined): string {
  const target = url ?? '/';
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}
