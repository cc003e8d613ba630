/**
 * Services running in this process (the embedded platform): the gateway hands a request to the
 * service's own express app instead of proxying it over loopback HTTP, after the pipeline
 * (authentication, rate limit, organization check, caller headers, signature) ran exactly as for
 * a proxied request. An SSE client then costs one socket instead of three, and a request saves a
 * hop. Services without an in-process handler (distributed) go to the proxy.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceName } from './route-table';

export type ServiceHandler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;
/** A handler that is also the HTTP server's request listener (called without `next`). */
export type RequestHandlerOrListener = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) => void;
export type InProcessServices = Partial<Record<ServiceName, ServiceHandler>>;
