/**
 * A real HTTP receiver for push tests, on 127.0.0.1 port 0: records every request (raw body kept,
 * for signature checks) and answers as the test scripts it (status codes, or hanging for timeouts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedPush {
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: { id: string; items: Record<string, any>[] };
  at: number;
}

export type Reply = number | 'hang';

export interface PushReceiver {
  url: string;
  port: number;
  received: ReceivedPush[];
  /** Answers used in order, one per request; when exhausted, `fallback`. */
  script: Reply[];
  fallback: Reply;
  close(): Promise<void>;
}

export async function startPushReceiver(options: { script?: Reply[]; fallback?: Reply } = {}): Promise<PushReceiver> {
  const receiver = {
    received: [] as ReceivedPush[],
    script: [...(options.script ?? [])],
    fallback: options.fallback ?? 200,
  } as PushReceiver;
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: ReceivedPush['body'];
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = { id: '', items: [] };
      }
      receiver.received.push({ headers: req.headers, rawBody, body, at: Date.now() });
      const reply = receiver.script.length ? receiver.script.shift()! : receiver.fallback;
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(reply, { 'content-type': 'text/plain' });
      res.end(reply >= 200 && reply < 300 ? 'ok' : `receiver says ${reply}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  receiver.port = port;
  receiver.url = `http://127.0.0.1:${port}/hooks/wellstream`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** A loopback port with nothing listening (connection refused). */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
