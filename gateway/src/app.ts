/**
 * The gateway's express app: health, docs, the operator API, and the authenticated proxy to the
 * services.
 */
import express from 'express';
import { unauthenticated } from '@wellstream/errors';
import { errorHandler, notFoundHandler, requestContext, route } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';
import type { Outbox } from '@wellstream/outbox';
import type { RateLimitStore } from '@wellstream/ratelimit';
import type { AccountRepository } from './accounts/account.repository';
import { adminRoutes } from './accounts/admin.routes';
import { authenticate } from './accounts/authenticate.usecase';
import { gatewayPipeline } from './auth/gateway-pipeline';
import { tokenFromRequest } from './auth/token-from-request';
import { renderDocsPage } from './docs/docs-page';
import { mergedOpenApi } from './docs/openapi-merge';
import { ServiceDirectory, serviceProxy } from './proxy/service-proxy';

export interface GatewayAppDeps {
  logger: Logger;
  repo: AccountRepository;
  /** Organization changes are written with their events through it. */
  outbox: Outbox;
  rateLimits: RateLimitStore;
  adminToken: string;
  defaultRateLimit: number;
  publicUrl: () => string;
  /** Filled in as services come up (embedded) or from config (distributed). */
  directory: ServiceDirectory;
  ownHealth: () => Promise<boolean>;
}

async function servicesHealthy(directory: ServiceDirectory): Promise<boolean> {
  const urls = Object.values(directory);
  if (urls.length === 0) return false;
  const results = await Promise.all(
    urls.map((u) =>
      fetch(`${u}/health`, { signal: AbortSignal.timeout(2000) })
        .then((r) => r.ok)
        .catch(() => false),
    ),
  );
  return results.every(Boolean);
}

export const EXPECTED_SERVICES = ['users', 'records', 'streams', 'notifications', 'rules'] as const;

export function createGatewayApp(deps: GatewayAppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestContext(deps.logger));

  app.get(
    '/health',
    route(async (_req, res) => {
      const complete = EXPECTED_SERVICES.every((s) => deps.directory[s]);
      const ok = complete && (await deps.ownHealth()) && (await servicesHealthy(deps.directory));
      res.status(ok ? 200 : 503).json(ok ? { status: 'ok' } : { status: 'unavailable' });
    }),
  );
  app.get(
    '/v2/openapi.json',
    route(async (_req, res) => {
      res.json(await mergedOpenApi(deps.directory, deps.publicUrl(), deps.logger));
    }),
  );
  app.get(
    ['/docs', '/v2/docs'],
    route(async (_req, res) => {
      res.type('html').send(renderDocsPage(await mergedOpenApi(deps.directory, deps.publicUrl(), deps.logger)));
    }),
  );

  app.all(/^\/v2\/.*/, ...gatewayPipeline(deps), serviceProxy(deps.directory, deps.logger));

  app.use(
    '/v2/admin',
    route(async (req, _res, next) => {
      const identity = await authenticate(deps.repo, deps.adminToken, tokenFromRequest(req));
      if (identity.kind !== 'admin') throw unauthenticated('ADMIN_ONLY', 'This endpoint needs the operator token.');
      next();
    }),
    adminRoutes(deps),
  );

  app.use(notFoundHandler());
  app.use(errorHandler(deps.logger));
  return app;
}
