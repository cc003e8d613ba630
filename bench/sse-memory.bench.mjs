#!/usr/bin/env node
/**
 * Memory per idle SSE client: N stream clients (or replays) held open through the gateway of one
 * embedded platform (a child process), against a bare node:http server holding N idle SSE
 * responses measured in the same run (the physical reference: what a socket and a response cost
 * in Node here).
 *
 *   node bench/sse-memory.bench.mjs [--n 5000] [--kind connect|replay] [--root DIR]
 *
 * Realistic shape for `connect`: customers with 5 streams of 5 clients each (the documented
 * limits), so N / 25 customers. Raw sockets read and drop what arrives (pokes). Loopback only;
 * connections are spread over several 127.0.0.x source addresses; every wait has a deadline.
 */
import net from 'node:net';
import { api, args, createTenant, procSample, sleep, startBareSseServer, startEmbedded } from './harness.mjs';

const N = Number(args.n ?? 5000);
const KIND = args.kind ?? 'connect';
const kib = (bytes) => Number((bytes / 1024).toFixed(1));

function openIdle(port, pathAndQuery, i) {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host: '127.0.0.1', localAddress: `127.0.0.${2 + (i % 8)}` });
    let head = '';
    const timer = setTimeout(() => (s.destroy(), reject(new Error('no response head within 30 s'))), 30_000);
    s.setEncoding('utf8');
    s.on('connect', () => s.write(`GET ${pathAndQuery} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`));
    const onData = (chunk) => {
      head += chunk;
      if (!head.includes('\r\n\r\n')) return;
      clearTimeout(timer);
      s.off('data', onData);
      s.on('data', () => {});
      if (!head.startsWith('HTTP/1.1 200')) return s.destroy(), reject(new Error(`unexpected answer: ${head.split('\r\n')[0]}`));
      resolve(s);
    };
    s.on('data', onData);
    s.on('error', (err) => (clearTimeout(timer), reject(err)));
  });
}

async function hold(pid, port, paths) {
  await sleep(1000);
  const before = procSample(pid).rss;
  const sockets = [];
  const t0 = Date.now();
  for (let i = 0; i < paths.length; i += 100) sockets.push(...(await Promise.all(paths.slice(i, i + 100).map((p, j) => openIdle(port, p, i + j)))));
  const openMs = Date.now() - t0;
  await sleep(3000);
  const open = procSample(pid).rss;
  for (const s of sockets) s.destroy();
  return { before, open, openMs };
}

/** The reference: a bare node:http server that answers every request with an idle SSE response. */
async function bare(n) {
  const { port, pid, kill } = await startBareSseServer();
  try {
    const r = await hold(pid, port, Array.from({ length: n }, () => '/sse'));
    return (r.open - r.before) / n;
  } finally {
    kill();
  }
}

const reference = await bare(N);
const platform = await startEmbedded({ WELLSTREAM_REPLAY_MAX_PER_CUSTOMER: String(N) });
try {
  const port = Number(new URL(platform.base).port);
  const paths = [];
  if (KIND === 'replay') {
    const t = await createTenant(platform.base, 'replays');
    for (let i = 0; i < N; i++) paths.push(`/v2/replay?token=${t.token}`);
  } else {
    for (let c = 0; paths.length < N; c++) {
      const t = await createTenant(platform.base, `c${c}`);
      for (let s = 0; s < 5 && paths.length < N; s++) {
        const stream = await api(platform.base, 'POST', '/streams', t.token, { name: `s${s}` });
        for (let m = 0; m < 5 && paths.length < N; m++) paths.push(`/v2/streams/${stream.id}/connect?token=${t.token}`);
      }
    }
  }
  const r = await hold(platform.pid, port, paths);
  const perClient = (r.open - r.before) / N;
  console.log(
    JSON.stringify(
      {
        root: args.root ?? '.',
        kind: KIND,
        clients: N,
        open_seconds: Number((r.openMs / 1000).toFixed(1)),
        platform_rss_mib_before: Number((r.before / 1048576).toFixed(1)),
        platform_rss_mib_with_clients: Number((r.open / 1048576).toFixed(1)),
        platform_kib_per_client: kib(perClient),
        bare_node_http_kib_per_client: kib(reference),
        ratio_to_bare: Number((perClient / reference).toFixed(2)),
      },
      null,
      2,
    ),
  );
} finally {
  await platform.stop();
}
process.exit(0);
