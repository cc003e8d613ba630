/**
 * The express app every service (and the gateway) starts from: request ids, one JSON log line per
 * request, a JSON body limit, malformed JSON → 400, unknown route → 404, errors → spec bodies.
 */
import express, { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { isAppError } from '@wellstream/errors';
import type { Logger } from '@wellstream/logging';
import { answerError } from './error-response';
import { gatewayTrust } from './gateway-trust.middleware';
import { healthReport, HealthOption } from './health';
import { ServiceMetrics } from './metrics';
import { requestContext } from './request-context';

export interface ServiceAppOptions {
  logger: Logger;
  /** Registers the service's routes. */
  routes: (app: express.Express) => void;
  /** Answers GET /health (see health.ts): the service is ready when every check passes. */
  health?: HealthOption;
  /** Served at GET /metrics; request counts and latencies are recorded into it. */
  metrics?: ServiceMetrics;
  bodyLimit?: string;
  /** Keys the gateway signs its assertions with (the first signs; all verify). */
  gatewayKeys: readonly string[];
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    const bodyError = err as { type?: string; status?: number };
    if (bodyError.type === 'entity.parse.failed') {
      res.status(400).json({ errors: ['Malformed JSON in the request body.'] });
      return;
    }
    if (bodyError.type === 'entity.too.large') {
      res.status(413).json({ errors: ['The request body is too large.'] });
      return;
    }
    if (bodyError.type && bodyError.status && bodyError.status < 500) {
      res.status(400).json({ errors: ['The request body could not be read.'] });
      return;
    }
    // express itself rejects some requests before any handler runs, e.g. a path parameter that is
    // not valid percent-encoding (`/users/%E0%A4%A` → URIError with status 400): bad input, not a 500.
    if (!isAppError(err) && bodyError.status !== undefined && bodyError.status >= 400 && bodyError.status < 500) {
      res.status(400).json({ errors: [err instanceof URIError ? 'The request path is not valid percent-encoding.' : 'The request could not be read.'] });
      return;
    }
    answerError(res, err, logger);
  };
}

export function notFoundHandler(): RequestHandler {
  return (req, res) => {
    res.status(404).json({ errors: [`No route for ${req.method} ${req.path}.`] });
  };
}

/** Lets route handlers be async: a rejected promise goes to the error handler. */
export const route =
  (fn: (req: Request, res: Response, next: NextFunction) => Promise<unknown> | unknown): RequestHandler =>
  (req, res, next) => {
    Promise.resolve()
      .then(() => fn(req, res, next))
      .catch(next);
  };

export function createServiceApp(options: ServiceAppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  options.metrics?.mount(app);
  app.use(requestContext(options.logger));
  app.get(
    '/health',
    route(async (_req, res) => {
      const report = await healthReport(options.health);
      res.status(report.status).json(report.body);
    }),
  );
  app.use(gatewayTrust({ keys: options.gatewayKeys, logger: options.logger }));
  // The exact bytes stay on the request: provider notifications are signed over them (sources).
  app.use(express.json({ limit: options.bodyLimit ?? '5mb', verify: (req, _res, buf) => void ((req as { rawBody?: Buffer }).rawBody = buf) }));
  options.routes(app);
  app.use(notFoundHandler());
  app.use(errorHandler(options.logger));
  return app;
}
