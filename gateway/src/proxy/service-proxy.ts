/**
 * Forwards a request to its service over a keep-alive pool. Bodies and Server-Sent Events stream
 * through unbuffered; a client that goes away aborts the upstream request at once.
 *
 * Written on node:http directly: the generic proxy it replaces parsed and rebuilt the target URL
 * and headers on every request, which cost the gateway as much as the rest of its work.
 */
import http from 'node:http';
import { AppError } from '@wellstream/errors';
import { sendJson, toHttpError } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';
import type { ServiceName } from './route-table';

export type ServiceDirectory = Partial<Record<ServiceName, string>>;

/** Forwards one request to `service` (the pipeline checked the directory has it) and streams the answer back. */
export type ServiceProxy = (req: http.IncomingMessage, res: http.ServerResponse, service: ServiceName) => void;

/** Connection-level headers: they describe one hop and are never forwarded (RFC 9110 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function withoutHopByHop(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

/** Appends this hop to X-Forwarded-For/-Port/-Proto, as proxies do. */
function addForwarded(headers: http.OutgoingHttpHeaders, req: http.IncomingMessage): void {
  const add = (name: string, value: string) => {
    const prev = headers[name];
    headers[name] = prev ? `${String(prev)},${value}` : value;
  };
  add('x-forwarded-for', req.socket.remoteAddress ?? '');
  add('x-forwarded-port', String(req.socket.localPort ?? ''));
  add('x-forwarded-proto', (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
}

/** How long a service may take to start its answer (an SSE stream starts at once; a REST page within seconds). */
export const UPSTREAM_HEAD_TIMEOUT_MS = 30_000;
const SERVICE_UNREACHABLE = toHttpError(new AppError('unavailable', 'UPSTREAM_UNAVAILABLE', 'The service is temporarily unavailable.', { retryAfterSeconds: 5 }));

export function serviceProxy(directory: ServiceDirectory, logger: Logger, headTimeoutMs = UPSTREAM_HEAD_TIMEOUT_MS): ServiceProxy {
  // No cap on concurrent upstream sockets: each open SSE connection holds one for its whole life,
  // so a cap (it was 256) made the next client wait forever. The idle pool stays bounded.
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256, keepAliveMsecs: 10_000 });
  const targets = new Map<string, URL>();
  const targetOf = (base: string) => {
    let url = targets.get(base);
    if (!url) targets.set(base, (url = new URL(base)));
    return url;
  };

  return (req, res, service) => {
    const target = targetOf(directory[service] as string);
    const headers = withoutHopByHop(req.headers);
    addForwarded(headers, req);
    const upstream = http.request({ agent, protocol: target.protocol, hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers });

    // A service that was killed, restarts or hangs: 503 with Retry-After the caller may act on, never a wait without end.
    const headTimer = setTimeout(() => upstream.destroy(new Error(`no answer within ${headTimeoutMs} ms`)), headTimeoutMs);
    const fail = (err: Error) => {
      clearTimeout(headTimer);
      if (res.destroyed) return; // the client left first; destroying the upstream is what failed
      logger.warn('upstream error', { error: err });
      if (!res.headersSent) sendJson(res, SERVICE_UNREACHABLE.status, SERVICE_UNREACHABLE.body, SERVICE_UNREACHABLE.headers);
      else res.destroy();
    };
    upstream.on('error', fail);
    // Abort the upstream as soon as the client is gone (SSE disconnects must reach the service).
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.on('response', (answer) => {
      clearTimeout(headTimer);
      const out = withoutHopByHop(answer.headers);
      // Tell any intermediary not to buffer event streams, and send their headers at once.
      const sse = String(answer.headers['content-type'] ?? '').startsWith('text/event-stream');
      if (sse) out['x-accel-buffering'] = 'no';
      res.writeHead(answer.statusCode ?? 502, out);
      if (sse) res.flushHeaders();
      answer.on('error', () => res.destroy());
      answer.pipe(res);
    });
    // Most requests have no body (GET): end at once rather than wiring a stream pipe for nothing.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) upstream.end();
    else req.pipe(upstream);
  };
}
