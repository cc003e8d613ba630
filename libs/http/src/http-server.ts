/**
 * Starts an express app and stops it gracefully: stop accepting, let in-flight requests finish,
 * end long-lived responses (SSE) that registered themselves, then close the remaining sockets.
 * While stopping, every answer says `Connection: close` and its connection closes after it: a
 * keep-alive client (the edge, a load balancer, the gateway's pool) would otherwise go on sending
 * requests over a connection the stopping server still serves, until the grace runs out and cuts
 * them mid-request.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RequestListener } from 'node:http';

const LISTEN_BACKLOG = 4096;

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
  const answering = new Set<http.ServerResponse>();
  // Sockets with an answer in progress; the others are idle, also those that never carried a
  // request (a client's spare connection), which closeIdleConnections leaves open.
  const busy = new Set<Socket>();
  let stopping = false;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.prependListener('request', (req, res) => {
    const socket = req.socket;
    if (stopping) res.shouldKeepAlive = false;
    busy.add(socket);
    answering.add(res);
    // One listener: an event stream keeps it for hours, fifteen thousand of them per process.
    res.once('close', () => {
      busy.delete(socket);
      answering.delete(res);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A deep accept queue (the kernel caps it at net.core.somaxconn): when a streams replica goes
    // away, thousands of its clients connect to another within a second. With node's default of
    // 511, connections beyond it are completed by SYN cookies and then reset (ECONNRESET).
    server.listen({ port: opts.port, host: opts.host, backlog: LISTEN_BACKLOG }, () => {
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
        stopping = true;
        // Answers not started yet close their connection after them. (Those started already were
        // announced keep-alive: a request that still comes on their connection is answered with
        // `Connection: close`, above.)
        for (const res of answering) if (!res.headersSent) res.shouldKeepAlive = false;
        server.close(() => resolve());
        for (const end of longLived) end();
        server.closeIdleConnections();
        for (const s of sockets) if (!busy.has(s)) s.destroy();
        setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, graceMs).unref();
      });
      return closing;
    },
  };
}
