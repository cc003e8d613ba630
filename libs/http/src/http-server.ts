/**
 * Starts an express app and stops it gracefully: stop accepting, let in-flight requests finish,
 * end long-lived responses (SSE) that registered themselves, then close the remaining sockets.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RequestListener } from 'node:http';

export interface HttpServerHandle {
  server: http.Server;
  port: number;
  url: string;
  /** Long-lived responses call this so shutdown can end them instead of waiting forever. */
  trackLongLived(end: () => void): () => void;
  close(graceMs?: number): Promise<void>;
}

export async function startHttpServer(app: RequestListener, opts: { host: string; port: number }): Promise<HttpServerHandle> {
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const sockets = new Set<Socket>();
  const longLived = new Set<() => void>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    server,
    port,
    url: `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`,
    trackLongLived(end) {
      longLived.add(end);
      return () => longLived.delete(end);
    },
    close(graceMs = 5000) {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const end of longLived) end();
        server.closeIdleConnections();
        setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, graceMs).unref();
      });
      return closing;
    },
  };
}
