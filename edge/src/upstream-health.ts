/**
 * Active health checks: every interval, GET /health on each gateway over a fresh connection, bounded
 * by a timeout. A gateway that answers at all is in rotation; one that refuses, resets or stays
 * silent is not. A fresh connection, not the proxy's keep-alive pool: a draining gateway has closed
 * its listener (libs/http http-server.ts) but still serves the connections it had, so only a new
 * connection shows that it is leaving.
 *
 * Any status counts as up, 503 included: the gateway's /health says 503 when a server or a service
 * behind it is down, which every gateway replica shares. Taking them all out would replace their
 * informative 503s (Retry-After, the dependency named) with the edge's own, and gain nothing.
 */
import http from 'node:http';
import type { Upstream, UpstreamPool } from './upstream-pool';

export interface HealthChecker {
  /** One round now (start-up, tests); resolves when every check of the round has an outcome. */
  checkNow(): Promise<void>;
  stop(): void;
}

/** Resolves true when the upstream answered /health with any status within `timeoutMs`. */
export function probeHealth(upstream: Upstream, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const { hostname, port } = upstream.target;
    const req = http.request({ agent: false, hostname, port, method: 'GET', path: '/health', headers: { connection: 'close' }, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', () => resolve(false));
    req.end();
  });
}

export function startHealthChecks(pool: UpstreamPool, options: { intervalMs: number; timeoutMs: number; probe?: typeof probeHealth }): HealthChecker {
  const probe = options.probe ?? probeHealth;
  // One check per upstream at a time: a gateway that is slow to answer is not asked again meanwhile.
  const inFlight = new Map<Upstream, Promise<void>>();
  let stopped = false;
  const check = (u: Upstream) => {
    let running = inFlight.get(u);
    if (!running) {
      running = probe(u, options.timeoutMs).then((ok) => {
        inFlight.delete(u);
        if (stopped) return;
        if (ok) pool.markUp(u, 'health check answered');
        else pool.markDown(u, 'health check failed');
      });
      inFlight.set(u, running);
    }
    return running;
  };
  const round = () => Promise.all(pool.upstreams.map(check)).then(() => undefined);
  const timer = setInterval(() => void round(), options.intervalMs);
  timer.unref();
  return {
    checkNow: round,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
