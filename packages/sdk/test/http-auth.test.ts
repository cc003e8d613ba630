/**
 * How the SDK presents itself (loopback server that records requests): the token as
 * `Authorization: Bearer` by default (never in the URL), in the `token` parameter when asked, on
 * event streams too, and a User-Agent naming the SDK's version.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SDK_VERSION, Wellstream } from '../src';

let server: http.Server;
let base = '';
const seen: { url: string; headers: http.IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({ url: req.url!, headers: req.headers });
    if (req.url!.includes('/connect')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return res.end('event: data\nid: 0-1\ndata: {}\n\n');
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ streams: [], meta: { total: 0 } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v2`;
});
afterAll(() => server.close());
beforeEach(() => (seen.length = 0));

it('sends the token as a Bearer header, with a User-Agent naming the SDK', async () => {
  const ws = new Wellstream({ baseUrl: base, token: 'tok-1' });
  await ws.streams.list();
  for await (const e of ws.streams.connect('s1')) if (e.type === 'data') break;
  expect(seen.map((r) => r.url)).toEqual(['/v2/streams', '/v2/streams/s1/connect']);
  for (const r of seen) {
    expect(r.headers.authorization).toBe('Bearer tok-1');
    expect(r.headers['user-agent']).toBe(`wellstream-sdk-js/${SDK_VERSION} node/${process.versions.node}`);
  }
});

it("sends it as the interface's token parameter when asked", async () => {
  await new Wellstream({ baseUrl: base, token: 'tok-2', tokenIn: 'query' }).streams.list();
  expect(seen[0].url).toBe('/v2/streams?token=tok-2');
  expect(seen[0].headers.authorization).toBeUndefined();
});
