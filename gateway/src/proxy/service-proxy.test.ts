import http from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import net from 'node:net';
import { createLogger } from '@wellstream/logging';
import { serviceProxy } from './service-proxy';

const listen = async <S extends Server>(server: S) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

/** The gateway side: every request goes to `streams` at `upstream`. */
async function gatewayTo(upstream: string, headTimeoutMs?: number) {
  const proxy = serviceProxy({ streams: upstream }, createLogger('service-proxy-test'), headTimeoutMs);
  const server = http.createServer((req, res) => proxy(req, res, 'streams'));
  return { url: await listen(server), close: () => new Promise((r) => server.close(r)) };
}

async function expectUnavailable(res: Response) {
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('5');
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await res.json()).toEqual({ message: 'The service is temporarily unavailable.' });
}

it('answers 503 with Retry-After when the service is down (connection refused), not a 502 or a 500', async () => {
  const gone = net.createServer();
  const url = await listen(gone);
  await new Promise((r) => gone.close(r)); // nothing listens there now
  const gateway = await gatewayTo(url);
  try {
    await expectUnavailable(await fetch(`${gateway.url}/v2/streams`));
  } finally {
    await gateway.close();
  }
});

it('answers 503 with Retry-After when the service accepts but never starts its answer, instead of hanging', async () => {
  const sockets: net.Socket[] = [];
  const silent = net.createServer((s) => void sockets.push(s)); // reads nothing, answers nothing
  const gateway = await gatewayTo(await listen(silent), 300);
  try {
    const started = Date.now();
    await expectUnavailable(await fetch(`${gateway.url}/v2/streams`));
    expect(Date.now() - started).toBeLessThan(5_000);
  } finally {
    for (const s of sockets) s.destroy();
    await gateway.close();
    await new Promise((r) => silent.close(r));
  }
});

it('streams a service’s answer through unchanged', async () => {
  const service = http.createServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'));
  const gateway = await gatewayTo(await listen(service));
  try {
    const res = await fetch(`${gateway.url}/v2/streams`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: [] });
  } finally {
    await gateway.close();
    await new Promise((r) => service.close(r));
  }
});
