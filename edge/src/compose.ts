/**
 * The edge's composition root: the pool of gateways from config, their health checks, the proxy,
 * and the HTTP server that stops gracefully (libs/http). In docker-compose.yml the edge is what a
 * load balancer or a Kubernetes Service is elsewhere: one address in front of several gateway
 * replicas, so that replacing one gateway refuses no caller (docs/deployment.md).
 */
import { HttpServerHandle, startHttpServer } from '@wellstream/http';
import { createLogger, setLogLevel } from '@wellstream/logging';
import type { EdgeConfig } from './config';
import { edgeProxy } from './edge-proxy';
import { startHealthChecks } from './upstream-health';
import { UpstreamPool } from './upstream-pool';

export interface RunningEdge {
  name: 'edge';
  url: string;
  port: number;
  pool: UpstreamPool;
  stop(): Promise<void>;
}

/** How long the edge's requests in flight may finish after a stop before their connections are cut. */
const STOP_GRACE_MS = 5_000;

export async function composeEdge(config: EdgeConfig): Promise<RunningEdge> {
  setLogLevel(config.WELLSTREAM_LOG_LEVEL);
  const logger = createLogger('edge');
  const pool = new UpstreamPool(config.WELLSTREAM_EDGE_UPSTREAMS, (u, up, reason) =>
    up ? logger.info('gateway in rotation', { upstream: u.url, reason }) : logger.warn('gateway out of rotation', { upstream: u.url, reason }),
  );
  const health = startHealthChecks(pool, { intervalMs: config.WELLSTREAM_EDGE_HEALTH_INTERVAL_MS, timeoutMs: config.WELLSTREAM_EDGE_HEALTH_TIMEOUT_MS });
  void health.checkNow();
  const late: { http?: HttpServerHandle } = {};
  const handler = edgeProxy({
    pool,
    logger,
    maxBodyBytes: config.WELLSTREAM_EDGE_MAX_BODY_BYTES,
    connectTimeoutMs: config.WELLSTREAM_EDGE_CONNECT_TIMEOUT_MS,
    headTimeoutMs: config.WELLSTREAM_EDGE_HEAD_TIMEOUT_MS,
    trackLongLived: (end) => (late.http ? late.http.trackLongLived(end) : () => undefined),
  });
  let server: HttpServerHandle;
  try {
    server = await startHttpServer(handler, { host: config.WELLSTREAM_HOST, port: config.WELLSTREAM_PORT });
  } catch (err) {
    health.stop();
    throw err;
  }
  late.http = server;
  return {
    name: 'edge',
    url: server.url,
    port: server.port,
    pool,
    async stop() {
      // Stop listening, end the streams (their clients reconnect once an edge listens again), let
      // other requests finish; health checks run until then so a retry still picks a live gateway.
      await server.close(STOP_GRACE_MS);
      health.stop();
    },
  };
}
