/**
 * Gateway overhead: the same request straight to the streams service and through the gateway
 * (token lookup + rate-limit hit + organization check + keep-alive proxy). Prints both and the ratio.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { load, fmt } from './load.mjs';

process.env.WELLSTREAM_LOG_LEVEL ??= 'silent';
const require = createRequire(import.meta.url);
const { startPlatform } = require('../platform/dist/index.js');

const TOTAL = Number(process.env.BENCH_REQUESTS ?? 5000);
const admin = 'bench-admin-token-0123456789';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-bench-'));
const platform = await startPlatform({ WELLSTREAM_PORT: '0', WELLSTREAM_DATA_DIR: dataDir, WELLSTREAM_ADMIN_TOKEN: admin, WELLSTREAM_LOG_LEVEL: 'silent' });
try {
  const post = async (p, body) =>
    (await fetch(`${platform.baseUrl}${p}?token=${admin}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  const customer = await post('/admin/customers', { name: 'bench' });
  const { token } = await post(`/admin/customers/${customer.id}/tokens`, { rate_limit_per_hour: 10_000_000 });
  const streamsUrl = platform.gateway.directory.streams;
  const direct = await load({ url: `${streamsUrl}/v2/streams`, headers: { 'x-wellstream-customer-id': customer.id }, total: TOTAL });
  const through = await load({ url: `${platform.baseUrl}/streams?token=${token}`, total: TOTAL });
  console.log(`${TOTAL} GET /v2/streams each, 32 concurrent, keep-alive, one process (embedded), ${os.cpus().length} cores`);
  console.log(fmt('direct to the streams service', direct));
  console.log(fmt('through the gateway (auth + rate limit + proxy)', through));
  console.log(`gateway throughput ratio: ${(through.rps / direct.rps).toFixed(2)} of direct`);
} finally {
  await platform.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
