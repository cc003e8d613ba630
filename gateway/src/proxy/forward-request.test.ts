import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { unauthenticated } from '@wellstream/errors';
import { ServiceMetrics } from '@wellstream/http';
import { createLogger } from '@wellstream/logging';
import { forwardRequests, GatewayPipeline } from './forward-request';
import type { ServiceHandler } from './in-process-services';

async function serve(pipeline: GatewayPipeline) {
  const seen: string[] = [];
  const metrics = new ServiceMetrics('gateway-test');
  const streams: ServiceHandler = (req, res) => {
    seen.push(`streams ${req.url} ${String(req.headers['x-signed'])}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}');
  };
  const handler = forwardRequests(
    {
      logger: createLogger('forward-request-test'),
      metrics,
      pipeline,
      sign: (req) => void (req.headers['x-signed'] = 'yes'),
      inProcess: { streams },
      proxy: () => {
        throw new Error('no service runs outside this process here');
      },
    },
    (req, res) => {
      seen.push(`gateway's own ${req.url}`);
      res.writeHead(404).end();
    },
  );
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen, metrics, close: () => new Promise((r) => server.close(r)) };
}

it('hands a routed request to its service after the pipeline and the signature; anything else to the gateway’s own app', async () => {
  const s = await serve(async () => undefined);
  try {
    const ok = await fetch(`${s.base}/v2/streams?token=t`, { headers: { 'x-request-id': 'req-1' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toBe('req-1');
    expect((await fetch(`${s.base}/v2/admin/customers`)).status).toBe(404);
    expect(s.seen).toEqual(['streams /v2/streams?token=t yes', "gateway's own /v2/admin/customers"]);
    const metrics = (await s.metrics.render()).body;
    expect(metrics).toMatch(/http_requests_total\{method="GET",route="\/v2\/streams",status="200",service="gateway-test"\} 1/);
  } finally {
    await s.close();
  }
});

it('answers a pipeline refusal in the documented shape, with a request id, and never reaches the service', async () => {
  const s = await serve(async () => {
    throw unauthenticated('TOKEN_INVALID', 'Invalid authentication credentials.');
  });
  try {
    const res = await fetch(`${s.base}/v2/streams/abc`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toMatch(/^[\w.:-]+$/);
    expect(await res.json()).toEqual({ message: 'Invalid authentication credentials.' });
    expect(s.seen).toEqual([]);
  } finally {
    await s.close();
  }
});

it('answers 500 {"message"} when forwarding itself fails, never a stack trace', async () => {
  const s = await serve(async () => undefined);
  try {
    const res = await fetch(`${s.base}/v2/organizations/o1/users`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'An internal error occurred; details were logged.' });
  } finally {
    await s.close();
  }
});
