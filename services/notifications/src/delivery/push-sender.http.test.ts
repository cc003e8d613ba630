import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpPushSender } from './push-sender.http';
import { signPush, verifyPush } from './push-signature';

describe('HttpPushSender', () => {
  let server: http.Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits += 1;
      req.resume();
      if (req.url === '/big') res.end('x'.repeat(10_000));
      else if (req.url === '/hang') return;
      else res.writeHead(201).end('created');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const send = (url: string, allowPrivate = true, timeoutMs = 2000) =>
    new HttpPushSender({ timeoutMs, policy: { allowPrivate } }).send({ url, headers: { 'content-type': 'application/json' }, body: '{}' });

  it('returns the status and body of an answer, truncated to 2 KiB', async () => {
    expect(await send(`http://127.0.0.1:${port}/ok`)).toEqual({ code: 201, body: 'created' });
    // Through the guarded DNS lookup (allowed here).
    expect(await send(`http://localhost:${port}/ok`)).toEqual({ code: 201, body: 'created' });
    const big = await send(`http://127.0.0.1:${port}/big`);
    expect(big.code).toBe(200);
    expect(big.body).toHaveLength(2048);
  });

  it('refuses a private address at delivery time, before connecting (code 0 with the reason)', async () => {
    const before = hits;
    const literal = await send(`http://127.0.0.1:${port}/ok`, false);
    expect(literal).toEqual({ code: 0, body: expect.stringMatching(/^refused to connect: .*private or loopback/) });
    // A name is judged on the address the socket would connect to.
    const named = await send(`http://localhost:${port}/ok`, false);
    expect(named).toEqual({ code: 0, body: expect.stringMatching(/^refused to connect: .*private or loopback/) });
    expect(await send('http://169.254.169.254/latest', true)).toMatchObject({ code: 0, body: expect.stringMatching(/link-local/) });
    expect(hits).toBe(before);
  });

  it('records code 0 for timeouts and unresolvable hosts', async () => {
    expect(await send(`http://127.0.0.1:${port}/hang`, true, 200)).toEqual({ code: 0, body: 'no response within 200 ms (timeout)' });
    expect(await send('http://no-such-host.invalid/x')).toMatchObject({ code: 0, body: expect.stringMatching(/could not be resolved/) });
  });
});

describe('push signature', () => {
  it('is sha256=<hex HMAC(secret, "<ts>.<body>")> and verifies within the tolerance only', () => {
    const sig = signPush('k', 1700000000, '{"a":1}');
    expect(sig).toBe('sha256=' + require('node:crypto').createHmac('sha256', 'k').update('1700000000.{"a":1}').digest('hex'));
    expect(verifyPush('k', { timestamp: '1700000000', signature: sig }, '{"a":1}', { nowSeconds: 1700000100 })).toBe(true);
    expect(verifyPush('k', { timestamp: '1700000000', signature: sig }, '{"a":1}', { nowSeconds: 1700000400 })).toBe(false);
    expect(verifyPush('k', { timestamp: '1700000000', signature: sig }, '{"a":2}', { nowSeconds: 1700000000 })).toBe(false);
    expect(verifyPush('k', { timestamp: '1700000000', signature: undefined }, '{"a":1}', { nowSeconds: 1700000000 })).toBe(false);
  });
});
