/**
 * The edge (edge/src) in front of real node:http upstreams on loopback: round-robin, a
 * refused gateway skipped with no error the caller sees (its body sent intact to the next one), all
 * down → 503 with Retry-After in the platform's error shape, SSE passed through as it is written
 * and aborted upstream when the caller leaves, a gateway that stops gracefully handed over without
 * a failed request, forged forwarding headers replaced, and a bad configuration refused at start.
 */
import http from 'node:http';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startHttpServer, HttpServerHandle } from '@wellstream/http';
import { eventually, freePort } from '@wellstream/testing';
import { composeEdge, RunningEdge } from '../src/compose';
import { loadEdgeConfig } from '../src/config';

interface Upstream {
  name: string;
  url: string;
  seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  handle: HttpServerHandle;
}

/** A stand-in gateway: answers its name and what it received; `/events` is a stream it writes by hand. */
async function upstream(name: string, onEvents?: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Upstream> {
  const seen: Upstream['seen'] = [];
  const handle = await startHttpServer((req, res) => {
    if (req.url === '/health') return void res.end('{"status":"ok"}');
    if (req.url?.startsWith('/events') && onEvents) return onEvents(req, res);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': name });
      res.end(JSON.stringify({ name, body }));
    });
  }, { host: '127.0.0.1', port: 0 });
  return { name, url: handle.url, seen, handle };
}

async function edgeOver(urls: string[], extra: NodeJS.ProcessEnv = {}): Promise<RunningEdge> {
  return composeEdge(loadEdgeConfig({ WELLSTREAM_PORT: '0', WELLSTREAM_EDGE_UPSTREAMS: urls.join(','), WELLSTREAM_EDGE_HEALTH_INTERVAL_MS: '100', WELLSTREAM_LOG_LEVEL: 'silent', ...extra }));
}

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of closing.splice(0).reverse()) await c().catch(() => undefined);
});
const track = <T extends { stop?: () => Promise<void>; handle?: HttpServerHandle }>(x: T): T => {
  closing.push(async () => (x.stop ? x.stop() : x.handle?.close(100)));
  return x;
};

it('round-robin over the gateways in rotation', async () => {
  const a = track(await upstream('a'));
  const b = track(await upstream('b'));
  const edge = track(await edgeOver([a.url, b.url]));
  const names: string[] = [];
  for (let i = 0; i < 6; i++) names.push(((await (await fetch(`${edge.url}/v2/x?i=${i}`)).json()) as { name: string }).name);
  expect(names.filter((n) => n === 'a')).toHaveLength(3);
  expect(names.filter((n) => n === 'b')).toHaveLength(3);
  // Method, path and query arrive as sent.
  expect(a.seen.map((s) => s.url).concat(b.seen.map((s) => s.url)).sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => `/v2/x?i=${i}`));
});

it('a refused gateway: every request (a POST with its body too) answered by the other, the refused one out of rotation', async () => {
  const b = track(await upstream('b'));
  const refused = `http://127.0.0.1:${await freePort()}`;
  // Health checks slow enough that requests, not checks, find the refusing gateway first.
  const edge = track(await edgeOver([refused, b.url], { WELLSTREAM_EDGE_HEALTH_INTERVAL_MS: '60000' }));
  for (let i = 0; i < 4; i++) {
    const res = await fetch(`${edge.url}/v2/mobile/records`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n: i }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'b', body: JSON.stringify({ n: i }) });
  }
  expect(edge.pool.upstreams.map((u) => u.up)).toEqual([false, true]);
  expect(b.seen.map((s) => s.headers['content-length'])).toEqual(['7', '7', '7', '7']);
});

it('no gateway answering: 503 {"message"} with Retry-After, at once', async () => {
  const edge = track(await edgeOver([`http://127.0.0.1:${await freePort()}`, `http://127.0.0.1:${await freePort()}`]));
  const t0 = Date.now();
  const res = await fetch(`${edge.url}/v2/streams`);
  expect(Date.now() - t0).toBeLessThan(2_000);
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('2');
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys((await res.json()) as object)).toEqual(['message']);
});

it('a gateway that comes back returns to rotation through its health check', async () => {
  const port = await freePort();
  const edge = track(await edgeOver([`http://127.0.0.1:${port}`]));
  await eventually(async () => !edge.pool.upstreams[0].up, 5_000, 50);
  expect((await fetch(`${edge.url}/x`)).status).toBe(503);
  const back = track({ handle: await startHttpServer((_req, res) => void res.end('ok'), { host: '127.0.0.1', port }) });
  await eventually(async () => edge.pool.upstreams[0].up, 5_000, 50);
  expect((await fetch(`${edge.url}/x`)).status).toBe(200);
  expect(back.handle.port).toBe(port);
});

it('SSE: each event reaches the caller as it is written; the caller leaving aborts the gateway request', async () => {
  let upstreamClosed = false;
  let writeNext: (() => void) | undefined;
  const a = track(
    await upstream('a', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write('id: 1\nevent: data\ndata: {"n":1}\n\n');
      writeNext = () => res.write('id: 2\nevent: data\ndata: {"n":2}\n\n');
      req.socket.on('close', () => (upstreamClosed = true));
    }),
  );
  const edge = track(await edgeOver([a.url]));
  const ctrl = new AbortController();
  const res = await fetch(`${edge.url}/events`, { signal: ctrl.signal });
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const reader = res.body!.getReader();
  const text = async () => new TextDecoder().decode((await reader.read()).value);
  expect(await text()).toContain('data: {"n":1}');
  writeNext!();
  expect(await text()).toContain('data: {"n":2}');
  ctrl.abort();
  await eventually(async () => upstreamClosed, 3_000, 20);
});

it('SSE: a gateway cut off mid-stream cuts the caller too (it reconnects), never ends it as complete', async () => {
  const a = track(
    await upstream('a', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: 1\ndata: {}\n\n');
      setTimeout(() => res.socket?.destroy(), 100);
    }),
  );
  const edge = track(await edgeOver([a.url]));
  const outcome = await new Promise<string>((resolve) => {
    http.get(`${edge.url}/events`, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve('ended'));
      res.on('error', () => resolve('cut'));
      res.on('aborted', () => resolve('cut'));
    });
  });
  expect(outcome).toBe('cut');
});

it('a gateway stopping gracefully (listener closed, in-flight finishing) is handed over without one failed request', async () => {
  const a = track(await upstream('a'));
  const b = track(await upstream('b'));
  const edge = track(await edgeOver([a.url, b.url]));
  const statuses: number[] = [];
  let stopAt = 0;
  const load = (async () => {
    for (let i = 0; i < 300; i++) {
      if (i === 50) {
        stopAt = i;
        void a.handle.close(1_000);
      }
      const res = await fetch(`${edge.url}/v2/mobile/records`, { method: 'POST', body: `{"i":${i}}`, headers: { 'content-type': 'application/json' } }).catch(() => undefined);
      statuses.push(res?.status ?? 0);
      await res?.arrayBuffer();
    }
  })();
  await load;
  expect(stopAt).toBe(50);
  expect(statuses.filter((s) => s !== 200)).toEqual([]);
  expect(b.seen.length).toBeGreaterThan(200);
  expect(edge.pool.upstreams[0].up).toBe(false);
});

it('forwarding headers are the edge\'s own; a caller cannot forge them or the gateway\'s identity headers', async () => {
  const a = track(await upstream('a'));
  const edge = track(await edgeOver([a.url]));
  await fetch(`${edge.url}/v2/x`, { headers: { 'x-forwarded-for': '6.6.6.6', 'x-wellstream-assertion': 'forged', 'x-wellstream-admin': '1', 'x-request-id': 'rid-1', authorization: 'Bearer t' } });
  const h = a.seen[0].headers;
  expect(h['x-forwarded-for']).toBe('127.0.0.1');
  expect(h['x-forwarded-proto']).toBe('http');
  expect(h['x-forwarded-host']).toBe(new URL(edge.url).host);
  expect(h['x-wellstream-assertion']).toBeUndefined();
  expect(h['x-wellstream-admin']).toBeUndefined();
  expect([h['x-request-id'], h.authorization, h.host]).toEqual(['rid-1', 'Bearer t', new URL(edge.url).host]);
});

it('a body over the limit: 413 {"errors"} as the services answer, nothing forwarded', async () => {
  const a = track(await upstream('a'));
  const edge = track(await edgeOver([a.url], { WELLSTREAM_EDGE_MAX_BODY_BYTES: '100' }));
  const res = await fetch(`${edge.url}/v2/x`, { method: 'POST', body: 'x'.repeat(101) });
  expect(res.status).toBe(413);
  expect(await res.json()).toEqual({ errors: ['The request body is too large.'] });
  expect(a.seen).toEqual([]);
});

describe('the edge process (the built dist, as in a container)', () => {
  const MAIN = path.resolve(__dirname, '../dist/main.js');
  const run = (env: NodeJS.ProcessEnv) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      });
    });

  it.each([
    [{}, /WELLSTREAM_EDGE_UPSTREAMS is required/],
    [{ WELLSTREAM_EDGE_UPSTREAMS: 'http://gateway-a:8080,gateway-b' }, /WELLSTREAM_EDGE_UPSTREAMS: each entry must be an http:\/\/ URL/],
    [{ WELLSTREAM_EDGE_UPSTREAMS: 'http://gateway-a:8080', WELLSTREAM_PORT: 'eighty' }, /WELLSTREAM_PORT/],
  ])('bad configuration %j: exit 1, the variable on stderr, no stack trace', async (env, message) => {
    const r = await run(env as NodeJS.ProcessEnv);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[edge] Invalid configuration');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('SIGTERM: stops listening and exits 0', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], { env: { PATH: process.env.PATH, WELLSTREAM_PORT: String(port), WELLSTREAM_EDGE_UPSTREAMS: 'http://127.0.0.1:1' }, stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await eventually(async () => (await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined))?.status === 503, 10_000, 100);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
