/**
 * Stopping the HTTP server: a keep-alive client is told `Connection: close` on the answers that
 * finish during the stop (and gets refused, not cut, on its next request), and connections that
 * carry no request do not hold the stop until the grace runs out.
 */
import http from 'node:http';
import net from 'node:net';
import { startHttpServer } from './http-server';

const get = (port: number, agent: http.Agent) =>
  new Promise<{ status: number | string; connection?: string }>((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: err.code ?? 'error' }));
  });

it('answers in flight when the stop begins say Connection: close; the next request is refused, not cut', async () => {
  const server = await startHttpServer((_req, res) => void setTimeout(() => res.end('ok'), 200), { host: '127.0.0.1', port: 0 });
  const agent = new http.Agent({ keepAlive: true });
  try {
    expect(await get(server.port, agent)).toEqual({ status: 200, connection: 'keep-alive' });
    const inFlight = get(server.port, agent);
    await new Promise((r) => setTimeout(r, 50));
    const closed = server.close(5_000);
    expect(await inFlight).toEqual({ status: 200, connection: 'close' });
    expect(await get(server.port, agent)).toEqual({ status: 'ECONNREFUSED' });
    const t0 = Date.now();
    await closed;
    expect(Date.now() - t0).toBeLessThan(1_000);
  } finally {
    agent.destroy();
  }
});

it('a connection that never sent a request does not hold the stop', async () => {
  const server = await startHttpServer((_req, res) => void res.end('ok'), { host: '127.0.0.1', port: 0 });
  const spare = net.connect(server.port, '127.0.0.1');
  await new Promise((r) => spare.once('connect', r));
  const t0 = Date.now();
  await server.close(5_000);
  expect(Date.now() - t0).toBeLessThan(1_000);
  spare.destroy();
});
