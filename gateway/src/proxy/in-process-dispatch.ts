/**
 * Hands a request to a service running in this process (the embedded platform) instead of proxying
 * it over loopback HTTP: the service's own express app handles the very same request and response,
 * after the gateway's pipeline (authentication, rate limit, organization check, caller headers) ran
 * exactly as for a proxied request. An SSE client then costs one socket instead of three, and a
 * request saves a hop. Services without an in-process handler (distributed) go to the proxy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { ServiceName } from './route-table';
import { TARGET_SERVICE } from './service-proxy';

export type ServiceHandler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;
export type InProcessServices = Partial<Record<ServiceName, ServiceHandler>>;

export function inProcessDispatch(services: InProcessServices): RequestHandler {
  return (req, res, next) => {
    const handler = services[(req as unknown as { [TARGET_SERVICE]: ServiceName })[TARGET_SERVICE]];
    if (!handler) return next();
    handler(req, res, next);
  };
}
