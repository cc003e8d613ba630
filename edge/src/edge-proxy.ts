/**
 * The edge's request handler: holds the body, sends the request to the next gateway in rotation,
 * and streams the answer back unbuffered (SSE included). A gateway that refuses or resets before
 * answering leaves rotation at once and the request goes to the next one when that is safe
 * (retry-policy.ts); when none is left the caller gets 503 with Retry-After in the platform's error
 * shape. A caller that goes away aborts the gateway request at once (stream disconnects must reach
 * the streams service); a gateway answer that is cut off cuts the caller's too, so a stream client
 * sees its connection end and reconnects with Last-Event-ID.
 */
import http from 'node:http';
import { AppError } from '@wellstream/errors';
import { sendJson, toHttpError } from '@wellstream/http';
import type { Logger } from '@wellstream/logging';
import { upstreamRequestHeaders, withoutHopByHop } from './forwarded-headers';
import { BodyTooLarge, readRequestBody } from './request-body';
import { mayRetryElsewhere } from './retry-policy';
import type { Upstream, UpstreamPool } from './upstream-pool';

export interface EdgeProxyOptions {
  pool: UpstreamPool;
  logger: Logger;
  maxBodyBytes: number;
  connectTimeoutMs: number;
  headTimeoutMs: number;
  /** Long-lived answers (SSE) register here so the edge's own stop can end them (libs/http). */
  trackLongLived?: (end: () => void) => () => void;
}

/** Seconds a caller should wait: about two health rounds, by when a replaced gateway is usually back. */
export const NO_GATEWAY_RETRY_AFTER_S = 2;
const NO_GATEWAY = toHttpError(new AppError('unavailable', 'NO_GATEWAY_AVAILABLE', 'No gateway is available right now; retry shortly.', { retryAfterSeconds: NO_GATEWAY_RETRY_AFTER_S }));
const GATEWAY_FAILED = toHttpError(new AppError('unavailable', 'GATEWAY_FAILED', 'The gateway did not answer; retry shortly.', { retryAfterSeconds: NO_GATEWAY_RETRY_AFTER_S }));

export function edgeProxy(options: EdgeProxyOptions): http.RequestListener {
  const { pool, logger } = options;
  // One keep-alive pool for all gateways (sockets are pooled per host and port). No cap on sockets:
  // each open stream holds one for its whole life, and a cap would make the next caller wait.
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256 });

  return (req, res) => {
    let current: http.ClientRequest | undefined;
    let callerGone = false;
    res.on('close', () => {
      if (res.writableFinished) return;
      callerGone = true;
      current?.destroy();
    });

    const send = (body: Buffer | undefined, candidates: Upstream[]): void => {
      if (callerGone) return;
      const upstream = candidates.shift();
      if (!upstream) {
        if (!res.headersSent) sendJson(res, NO_GATEWAY.status, NO_GATEWAY.body, NO_GATEWAY.headers);
        return;
      }
      const { hostname, port } = upstream.target;
      const method = req.method ?? 'GET';
      const up = http.request({ agent, hostname, port, method, path: req.url, headers: upstreamRequestHeaders(req, body) });
      current = up;
      let connected = false;
      let answered = false;
      let headTimedOut = false;
      let endingOnStop = false;
      up.on('socket', (socket) => {
        if (!socket.connecting) connected = true;
        else socket.once('connect', () => (connected = true));
      });
      const connectTimer = setTimeout(() => {
        if (!connected) up.destroy(new Error(`no connection within ${options.connectTimeoutMs} ms`));
      }, options.connectTimeoutMs);
      const headTimer = setTimeout(() => {
        headTimedOut = true;
        up.destroy(new Error(`no answer within ${options.headTimeoutMs} ms`));
      }, options.headTimeoutMs);
      const clearTimers = () => {
        clearTimeout(connectTimer);
        clearTimeout(headTimer);
      };

      up.on('error', (err) => {
        clearTimers();
        if (callerGone) return; // destroying the gateway request is what failed
        if (answered) {
          res.destroy();
          return;
        }
        // A slow answer is the gateway's own business (it bounds its services); no reason to take it out.
        if (!headTimedOut) pool.markDown(upstream, `${connected ? 'reset before answering' : 'connection failed'}: ${err.message}`);
        if (!headTimedOut && mayRetryElsewhere({ method, connected, reusedSocket: up.reusedSocket, answered })) {
          logger.debug('sent to the next gateway', { upstream: upstream.url, error: err.message });
          send(body, candidates);
          return;
        }
        logger.warn('gateway failed before answering', { upstream: upstream.url, error: err.message });
        if (!res.headersSent) sendJson(res, GATEWAY_FAILED.status, GATEWAY_FAILED.body, GATEWAY_FAILED.headers);
      });

      up.on('response', (answer) => {
        answered = true;
        clearTimers();
        const sse = String(answer.headers['content-type'] ?? '').startsWith('text/event-stream');
        res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
        if (sse) {
          // Headers out at once (a stream's first event may be seconds away); the edge's stop ends it.
          res.flushHeaders();
          // The gateway request goes first: ended the other way round, the gateway (and the streams
          // service behind it) would go on writing events into a connection nobody reads any more.
          const untrack = options.trackLongLived?.(() => {
            endingOnStop = true;
            up.destroy();
            res.end();
          });
          if (untrack) res.on('close', untrack);
        }
        // Cut off before its end (the gateway went away mid-stream): the caller's answer is cut too,
        // never ended as if complete.
        answer.on('close', () => {
          if (!answer.complete && !endingOnStop) res.destroy();
        });
        answer.on('error', () => res.destroy());
        answer.pipe(res);
      });

      if (body) up.end(body);
      else up.end();
    };

    readRequestBody(req, options.maxBodyBytes).then(
      (body) => {
        if (!callerGone) send(body, options.pool.candidates());
      },
      (err) => {
        // The services' own answer and shape for a body too large (libs/http create-service-app.ts).
        if (err instanceof BodyTooLarge) sendJson(res, 413, { errors: [err.message] });
        else res.destroy();
      },
    );
  };
}
