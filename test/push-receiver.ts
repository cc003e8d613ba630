/**
 * A push target for tests that can go down (its port closed: tries get no answer, code 0) and come
 * back on the same port; it keeps every batch it accepted, with its headers.
 */
import http from 'node:http';
import type { Socket } from 'node:net';

export interface ReceivedBatch {
  id: string;
  items: any[];
  headers: http.IncomingHttpHeaders;
}

export class PushReceiver {
  readonly bodies: ReceivedBatch[] = [];
  private server?: http.Server;
  private port = 0;
  private readonly sockets = new Set<Socket>();

  get url(): string {
    return `http://127.0.0.1:${this.port}/push`;
  }

  async start(): Promise<void> {
    await this.up();
  }

  async up(): Promise<void> {
    const server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString()));
      req.on('end', () => {
        const body = JSON.parse(text) as { id: string; items: any[] };
        this.bodies.push({ id: body.id, items: body.items, headers: req.headers });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Closes the port and every open connection. */
  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  stop(): Promise<void> {
    return this.down();
  }

  items(): any[] {
    return this.bodies.flatMap((b) => b.items);
  }
}
