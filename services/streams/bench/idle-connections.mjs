#!/usr/bin/env node
/**
 * Idle-connection benchmark of the streams service: starts the built platform (platform/dist) in a
 * child process on a loopback port, opens N idle SSE connections through the gateway
 * (stream connect by default, or replay), and prints the platform's RSS before, with the
 * connections open, and after closing them, plus the memory per connection.
 *
 *   node node_modules/typescript/bin/tsc -b tsconfig.build.json
 *   node services/streams/bench/idle-connections.mjs [--n 2000] [--kind connect|replay] [--timeout-ms 120000]
 *
 * Bounded: every wait has a deadline, the whole run aborts after --timeout-ms, and the platform
 * child is killed on exit.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const N = Number(args.n ?? 2000);
const KIND = args.kind ?? 'connect';
const TIMEOUT_MS = Number(args['timeout-ms'] ?? 120_000);
const MAX_MEMBERS = 1000;
const ADMIN = 'bench-admin-token-0123456789abcdef';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

async function freePort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

function rssOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

async function until(what, fn, ms = 30_000, every = 100) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(every);
  }
}

async function api(base, method, p, token, body) {
  const res = await fetch(`${base}${p}${p.includes('?') ? '&' : '?'}token=${token}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => undefined);
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** A raw socket that sends the request, waits for the status line, then never reads again. */
function openIdle(port, pathAndQuery) {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    let head = '';
    const timer = setTimeout(() => {
      s.destroy();
      reject(new Error('no response head within 30 s'));
    }, 30_000);
    s.setEncoding('utf8');
    s.on('connect', () => s.write(`GET ${pathAndQuery} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`));
    const onData = (chunk) => {
      head += chunk;
      if (!head.includes('\r\n\r\n')) return;
      clearTimeout(timer);
      s.off('data', onData);
      // Keep reading (and dropping) pokes so the connection stays a healthy idle client.
      s.on('data', () => {});
      if (!head.startsWith('HTTP/1.1 200')) {
        s.destroy();
        reject(new Error(`unexpected answer: ${head.split('\r\n')[0]}`));
      } else resolve(s);
    };
    s.on('data', onData);
    s.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

async function main() {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-bench-'));
  const child = spawn(process.execPath, [path.join(root, 'platform/dist/main.js')], {
    env: {
      ...process.env,
      WELLSTREAM_PORT: String(port),
      WELLSTREAM_HOST: '127.0.0.1',
      WELLSTREAM_DATA_DIR: dataDir,
      WELLSTREAM_ADMIN_TOKEN: ADMIN,
      WELLSTREAM_LOG_LEVEL: 'error',
      WELLSTREAM_STREAM_MAX_MEMBERS: String(MAX_MEMBERS),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const kill = () => child.exitCode === null && child.kill('SIGTERM');
  process.on('exit', kill);
  const abort = setTimeout(() => {
    console.error(`benchmark exceeded ${TIMEOUT_MS} ms; aborting`);
    kill();
    process.exit(2);
  }, TIMEOUT_MS);
  const base = `http://127.0.0.1:${port}/v2`;
  const sockets = [];
  try {
    await until('platform health', async () => (await fetch(`http://127.0.0.1:${port}/health`)).ok, 60_000, 200);
    // Connections per stream are capped (MAX_MEMBERS) and streams per customer by 5.
    const streamsNeeded = KIND === 'connect' ? Math.ceil(N / MAX_MEMBERS) : 0;
    const targets = [];
    for (let c = 0; c < Math.max(1, Math.ceil(streamsNeeded / 5)); c++) {
      const customer = await api(base, 'POST', '/admin/customers', ADMIN, { name: `bench ${c}` });
      await api(base, 'POST', `/admin/customers/${customer.id}/organizations`, ADMIN, { name: 'org' });
      const { token } = await api(base, 'POST', `/admin/customers/${customer.id}/tokens`, ADMIN, { rate_limit_per_hour: 1_000_000 });
      if (KIND === 'replay') targets.push({ token, path: '/v2/replay' });
      for (let s = 0; s < 5 && targets.length < streamsNeeded; s++) {
        const stream = await api(base, 'POST', '/streams', token, { name: `bench-${s}` });
        targets.push({ token, path: `/v2/streams/${stream.id}/connect`, id: stream.id });
      }
    }
    await sleep(1000);
    const before = rssOf(child.pid);
    const t0 = Date.now();
    for (let i = 0; i < N; i += 100) {
      const batch = [];
      for (let j = i; j < Math.min(N, i + 100); j++) {
        const t = KIND === 'connect' ? targets[Math.floor(j / MAX_MEMBERS)] : targets[0];
        batch.push(openIdle(port, `${t.path}?token=${t.token}`));
      }
      sockets.push(...(await Promise.all(batch)));
    }
    const openMs = Date.now() - t0;
    if (KIND === 'connect') {
      await until('members to reach N', async () => {
        let sum = 0;
        for (const t of targets) sum += (await api(base, 'GET', t.path.replace('/v2', '').replace('/connect', ''), t.token)).members;
        return sum === N;
      });
    }
    await sleep(2000);
    const open = rssOf(child.pid);
    for (const s of sockets) s.destroy();
    if (KIND === 'connect') {
      await until('members to drop to 0', async () => {
        for (const t of targets) if ((await api(base, 'GET', t.path.replace('/v2', '').replace('/connect', ''), t.token)).members !== 0) return false;
        return true;
      });
    }
    await sleep(2000);
    const after = rssOf(child.pid);
    console.log(
      JSON.stringify(
        {
          kind: KIND,
          connections: N,
          open_ms: openMs,
          platform_rss_before: mb(before),
          platform_rss_with_connections: mb(open),
          platform_rss_after_close: mb(after),
          per_connection_kib: Number(((open - before) / N / 1024).toFixed(1)),
          bench_client_rss: mb(process.memoryUsage().rss),
        },
        null,
        2,
      ),
    );
  } finally {
    for (const s of sockets) s.destroy();
    clearTimeout(abort);
    kill();
    await until('platform exit', async () => child.exitCode !== null, 10_000).catch(() => child.kill('SIGKILL'));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(`benchmark failed: ${err.message}`);
  process.exit(1);
});
