/**
 * Gateway overhead: the gateway and the streams service each in their own process (as deployed),
 * the load generator in this one. The same request straight to the service and through the
 * gateway (token lookup + rate-limit hit + keep-alive proxy), and, as the physical reference, a
 * bare node:http server answering a small JSON body from its own process. Prints each with its
 * ratio to the bare server, the gateway/direct ratio, and the CPU each process spends per request
 * (from /proc: steadier than throughput on a shared machine). `--root DIR` runs the gateway and
 * the service of another built checkout (e.g. the previous main) for a before/after in one window.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, fmt } from './load.mjs';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { args, procSample, ROOT } from './harness.mjs';
import { freePort, root as ownRoot, startProcess } from './processes.mjs';

const TOTAL = Number(process.env.BENCH_REQUESTS ?? 10000);
const { ASSERTION_HEADER, CALLER_HEADERS, signAssertion } = createRequire(import.meta.url)('../libs/http/dist/index.js');
// Services believe only what the gateway signed: the direct requests carry an assertion too.
const gatewayKey = randomUUID() + randomUUID();
const admin = 'bench-admin-token-0123456789';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-bench-'));
const [gwPort, streamsPort, barePort] = [await freePort(), await freePort(), await freePort()];
const bare = await startProcess('bench/bare-server.mjs', { BARE_PORT: String(barePort) }, `http://127.0.0.1:${barePort}/`);
const streamsUrl = `http://127.0.0.1:${streamsPort}`;
const base = `http://127.0.0.1:${gwPort}/v2`;
const built = (p) => path.relative(ownRoot, path.join(ROOT, p));
const streams = await startProcess(built('services/streams/dist/main.js'), { WELLSTREAM_DATA_DIR: path.join(dataDir, 's'), WELLSTREAM_SERVICE_PORT: String(streamsPort), WELLSTREAM_GATEWAY_KEYS: gatewayKey }, `${streamsUrl}/health`);
const gateway = await startProcess(
  built('gateway/dist/main.js'),
  { WELLSTREAM_DATA_DIR: path.join(dataDir, 'g'), WELLSTREAM_PORT: String(gwPort), WELLSTREAM_ADMIN_TOKEN: admin, WELLSTREAM_STREAMS_URL: streamsUrl, WELLSTREAM_GATEWAY_KEYS: gatewayKey },
  `${base}/streams`,
  [401],
  // BENCH_GATEWAY_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the gateway.
  (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean),
);
try {
  const post = async (p, body) =>
    (await fetch(`${base}${p}?token=${admin}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  const customer = await post('/admin/customers', { name: 'bench' });
  const { token } = await post(`/admin/customers/${customer.id}/tokens`, { rate_limit_per_hour: 10_000_000 });
  // Warm both paths (JIT, connection pools) before measuring.
  await load({ url: `${base}/streams?token=${token}`, total: 1000 });
  await load({ url: `http://127.0.0.1:${barePort}/`, total: 1000 });
  const reference = await load({ url: `http://127.0.0.1:${barePort}/v2/streams`, total: TOTAL });
  const s0 = procSample(streams.pid);
  // One assertion for the whole direct phase (valid for a minute; the phase takes seconds).
  const requestId = randomUUID();
  const assertion = signAssertion(gatewayKey, { method: 'GET', target: '/v2/streams', requestId, customerId: customer.id, organizationId: '', operator: false });
  const directHeaders = { 'x-request-id': requestId, [CALLER_HEADERS.customerId]: customer.id, [ASSERTION_HEADER]: assertion };
  const direct = await load({ url: `${streamsUrl}/v2/streams`, headers: directHeaders, total: TOTAL });
  const [g1, s1] = [procSample(gateway.pid), procSample(streams.pid)];
  const through = await load({ url: `${base}/streams?token=${token}`, total: TOTAL });
  const [g2, s2] = [procSample(gateway.pid), procSample(streams.pid)];
  const perRequest = (a, b, n) => ((b.cpuMs - a.cpuMs) / n).toFixed(3);
  const vsBare = (r) => `${(r.rps / reference.rps).toFixed(2)} of bare`;
  console.log(`${TOTAL} GET /v2/streams each, 32 concurrent, keep-alive; gateway and streams service (${args.root ?? 'this checkout'}) in their own processes, ${os.cpus().length} cores`);
  console.log(fmt('reference: bare node:http server', reference));
  console.log(fmt('direct to the streams service', direct), vsBare(direct));
  console.log(fmt('through the gateway (auth + rate limit + proxy)', through), vsBare(through));
  console.log(`CPU per request: streams service ${perRequest(s0, s1, direct.requests)} ms direct, ${perRequest(s1, s2, through.requests)} ms behind the gateway; gateway ${perRequest(g1, g2, through.requests)} ms`);
  console.log(`gateway throughput ratio: ${(through.rps / direct.rps).toFixed(2)} of direct; added p50 latency ${(through.p50 - direct.p50).toFixed(2)} ms`);
} finally {
  await bare.stop();
  await gateway.stop();
  await streams.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
