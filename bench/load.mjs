/**
 * A bounded HTTP load loop for the benchmarks: `total` requests with `concurrency` in flight over
 * keep-alive connections; reports throughput and latency percentiles. `pathFor(i)` varies the path.
 */
import http from 'node:http';

export async function load({ url, method = 'GET', body, headers = {}, total = 5000, concurrency = 32, timeLimitMs = 60_000, pathFor }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latencies = [];
  const statuses = {};
  let sent = 0;
  const deadline = Date.now() + timeLimitMs;
  const one = () =>
    new Promise((resolve) => {
      const t0 = process.hrtime.bigint();
      const req = http.request(
        { agent, host: target.hostname, port: target.port, path: pathFor ? pathFor(sent) : target.pathname + target.search, method, headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) } },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
            statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        statuses.error = (statuses.error ?? 0) + 1;
        resolve();
      });
      req.end(typeof body === 'function' ? body(sent) : body);
    });
  const started = Date.now();
  const worker = async () => {
    while (sent < total && Date.now() < deadline) {
      sent++;
      await one();
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (Date.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]?.toFixed(2);
  return { requests: latencies.length, seconds, rps: Math.round(latencies.length / seconds), p50: pct(50), p99: pct(99), statuses };
}

export const fmt = (label, r) =>
  `${label.padEnd(44)} ${String(r.rps).padStart(7)} req/s   p50 ${String(r.p50).padStart(6)} ms   p99 ${String(r.p99).padStart(6)} ms   ${JSON.stringify(r.statuses)}`;
