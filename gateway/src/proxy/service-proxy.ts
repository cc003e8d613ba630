/**
 * Forwards a request to its service over a keep-alive pool. Bodies and Server-Sent Events stream
 * through unbuffered; a client that goes away aborts the upstream request at once.
 */
import http from 'node:http';
import type { RequestHandler } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { unavailable } from '@wellstream/errors';
import { toHttpError } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';
import type { ServiceName } from './route-table';

export type ServiceDirectory = Partial<Record<ServiceName, string>>;

export const TARGET_SERVICE = 'wsTargetService';

export function serviceProxy(directory: ServiceDirectory, logger: Logger): RequestHandler {
  // No cap on concurrent upstream sockets: each open SSE connection holds one for its whole life,
  // so a cap (it was 256) made the next client wait forever. The idle pool stays bounded.
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256, keepAliveMsecs: 10_000 });
  return createProxyMiddleware({
    agent,
    changeOrigin: false,
    xfwd: true,
    router: (req) => {
      const service = (req as unknown as { [TARGET_SERVICE]: ServiceName })[TARGET_SERVICE];
      // The pipeline checked the directory before routing here.
      return directory[service] as string;
    },
    on: {
      proxyReq: (proxyReq, req, res) => {
        // Abort the upstream as soon as the client is gone (SSE disconnects must reach the service).
        res.on('close', () => {
          if (!res.writableFinished) proxyReq.destroy();
        });
        void req;
      },
      proxyRes: (proxyRes) => {
        // Tell any intermediary not to buffer event streams.
        if (String(proxyRes.headers['content-type'] ?? '').startsWith('text/event-stream')) {
          proxyRes.headers['x-accel-buffering'] = 'no';
        }
      },
      error: (err, _req, res) => {
        logger.warn('upstream error', { error: err });
        const out = toHttpError(unavailable('UPSTREAM_UNAVAILABLE', 'The service is temporarily unavailable.'));
        if ('writeHead' in res && !res.headersSent) {
          res.writeHead(502, { 'content-type': 'application/json' });
          res.end(JSON.stringify(out.body));
        } else res.end();
      },
    },
  });
}
