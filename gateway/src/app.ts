/**
 * The gateway's request handler: requests routed to a service take the forwarding path
 * (proxy/forward-request.ts); health, metrics, docs and the operator API are an express app.
 */
import express from 'express';
import type { EventLog } from '@wellstream/bus';
import { asyncApiDocument } from '@wellstream/contracts';
import { unauthenticated } from '@wellstream/errors';
import { errorHandler, HealthChecks, healthReport, notFoundHandler, requestContext, route, ServiceMetrics } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';
import type { Outbox } from '@wellstream/outbox';
import type { RateLimitStore } from '@wellstream/ratelimit';
import type { AccountRepository } from './accounts/account.repository';
import { adminRoutes } from './accounts/admin.routes';
import { operatorReadRoutes } from './accounts/reads/operator-reads.routes';
import { AccountLookups, adminTokenHash, authenticate } from './accounts/authenticate.usecase';
import type { TokenRevocations } from './auth/token-revocations';
import { gatewayPipeline } from './auth/gateway-pipeline';
import { tokenFromRequest } from './auth/token-from-request';
import { DOCS_PAGE_HEADERS, renderDocsPage } from './openapi/docs-page';
import { mergedOpenApi } from './openapi/openapi-merge';
import { callerSigner } from './proxy/caller-signer';
import { forwardRequests } from './proxy/forward-request';
import type { InProcessServices, RequestHandlerOrListener } from './proxy/in-process-services';
import { ServiceDirectory, serviceProxy } from './proxy/service-proxy';
import type { Clock } from '@wellstream/clock';

export interface GatewayAppDeps {
  logger: Logger;
  clock: Clock;
  repo: AccountRepository;
  /** The cached token and organization lookups of the request path. */
  accounts: AccountLookups;
  revocations: TokenRevocations;
  /** Organization changes are written with their events through it. */
  outbox: Outbox;
  eventLog: EventLog;
  rateLimits: RateLimitStore;
  adminToken: string;
  defaultRateLimit: number;
  publicUrl: () => string;
  /** Filled in as services come up (embedded) or from config (distributed). */
  directory: ServiceDirectory;
  /** Services running in this process (embedded): requests go to their handler without a hop. */
  inProcess: InProcessServices;
  /** The gateway's own dependencies; those in `optionalHealth` only degrade it (it keeps serving). */
  ownHealth: HealthChecks;
  optionalHealth?: string[];
  metrics?: ServiceMetrics;
  /** Caller assertions are signed with the first. */
  gatewayKeys: readonly string[];
}

/** One check per expected service: registered, and its own /health answers 200 in time. */
function serviceChecks(directory: ServiceDirectory): HealthChecks {
  return Object.fromEntries(
    EXPECTED_SERVICES.map((s) => [
      s,
      async () => {
        const url = directory[s];
        if (!url) return false;
        return fetch(`${url}/health`, { signal: AbortSignal.timeout(2000) })
          .then((r) => r.ok)
          .catch(() => false);
      },
    ]),
  );
}

export const EXPECTED_SERVICES = ['users', 'records', 'streams', 'notifications', 'rules', 'sources'] as const;

export function createGatewayApp(deps: GatewayAppDeps): RequestHandlerOrListener {
  const adminHash = adminTokenHash(deps.adminToken);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // The gateway reads only `token` (tokenFromRequest); the query goes on as sent, and an
  // in-process service must parse it with its own settings, so nothing parses it here.
  app.set('query parser', false);
  deps.metrics?.mount(app);
  app.use(requestContext(deps.logger));

  app.get(
    '/health',
    route(async (_req, res) => {
      const report = await healthReport({ ...deps.ownHealth, ...serviceChecks(deps.directory) }, { optional: deps.optionalHealth });
      res.status(report.status).json(report.body);
    }),
  );
  app.get(
    '/v2/openapi.json',
    route(async (_req, res) => {
      res.json(mergedOpenApi(deps.directory, deps.publicUrl()));
    }),
  );
  // The events (SSE and Kafka topics), generated from the same schemas the services validate with.
  app.get('/v2/asyncapi.json', (_req, res) => {
    res.json(asyncApiDocument({ publicUrl: deps.publicUrl() }));
  });
  app.get(
    ['/docs', '/v2/docs'],
    route(async (_req, res) => {
      res.set(DOCS_PAGE_HEADERS).send(renderDocsPage(mergedOpenApi(deps.directory, deps.publicUrl())));
    }),
  );

  app.use(
    '/v2/admin',
    route(async (req, _res, next) => {
      const identity = await authenticate(deps.accounts, adminHash, tokenFromRequest(req));
      if (identity.kind !== 'admin') throw unauthenticated('ADMIN_ONLY', 'This endpoint needs the operator token.');
      next();
    }),
  );
  // At the paths their declarations give (/v2/admin/…), behind the check above.
  app.use(adminRoutes(deps), operatorReadRoutes(deps));

  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));

  return forwardRequests(
    {
      logger: deps.logger,
      metrics: deps.metrics,
      pipeline: gatewayPipeline({ ...deps, adminHash }),
      // Signed on both paths: services in this process verify the assertion as remote ones do.
      sign: callerSigner(deps.gatewayKeys),
      inProcess: deps.inProcess,
      proxy: serviceProxy(deps.directory, deps.logger),
    },
    app,
  );
}
