/**
 * The node:http plumbing every simulator repeats: a server on a loopback port whose handler answers
 * with a plain reply object, started and stopped by the provider simulator suite. What a provider answers (its
 * routes, its error bodies) stays in the provider's simulator; this only carries replies out.
 */
import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SimReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export class SimServer {
  private server?: Server;
  private base = '';

  /** `http://127.0.0.1:<port>` once started, '' before. */
  get url(): string {
    return this.base;
  }

  /**
   * Listens on an ephemeral loopback port. A handler that throws is answered with `crashed(message)`,
   * in the provider's own error shape, so a simulator bug shows up as a readable 500.
   */
  async start(handle: (req: IncomingMessage) => Promise<SimReply>, crashed: (message: string) => SimReply): Promise<void> {
    const server = createServer((req, res) => {
      handle(req)
        .catch((err: unknown) => crashed(err instanceof Error ? err.message : String(err)))
        .then((reply) => {
          res.writeHead(reply.status, reply.headers ?? {});
          res.end(reply.body ?? '');
        });
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Closes kept-alive connections too, so a test run never waits on an idle socket. */
  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
