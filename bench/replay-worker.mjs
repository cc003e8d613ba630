/**
 * Replay clients on a worker thread of the benchmark. A real replaying customer reads on a machine
 * of its own; run on the measuring thread, parsing its tens of thousands of events would delay the
 * timers and responses of the very probes that measure the other customer, and the figures would
 * blame the platform for the benchmark's own work.
 *
 * Messages in: {id, cmd:'loop', url, expected, parallel} replays again and again until {cmd:'stop'};
 * {id, cmd:'once', url, expected} replays once; {id, cmd:'get', base, path, token} reads a REST
 * answer (a whole history of records: parsing it on the measuring thread held that thread for
 * hundreds of milliseconds, and the soak counted that against the platform's ingest latency).
 * Messages out: {id, done: {ms, got}} when a single replay or read ends ({got} is the number of
 * items read, -1 on an error), {id, stopped: completed} when a loop ends after a stop.
 */
import { parentPort } from 'node:worker_threads';
import { api, openSse, sleep, until } from './harness.mjs';

let running = false;
async function replayOnce(url, expected) {
  let got = 0;
  const t0 = performance.now();
  const sse = await openSse(url, (e) => {
    if (e === 'data') got++;
  });
  await until('replay done', async () => got >= expected || !running, 300_000, 20).catch(() => {});
  sse.close();
  return { ms: performance.now() - t0, got };
}

parentPort.on('message', async (m) => {
  if (m.cmd === 'stop') {
    running = false;
    return;
  }
  if (m.cmd === 'get') {
    const t0 = performance.now();
    const got = await api(m.base, 'GET', m.path, m.token).then((body) => body.data.length, () => -1);
    parentPort.postMessage({ id: m.id, done: { ms: performance.now() - t0, got } });
    return;
  }
  running = true;
  if (m.cmd === 'once') {
    // A 429 (the customer's replay slots are taken) is retried for a while, as a client would.
    const r = await until('a replay slot', () => replayOnce(m.url, m.expected), 30_000, 200).catch(() => ({ ms: NaN, got: 0 }));
    parentPort.postMessage({ id: m.id, done: r });
    return;
  }
  let completed = 0;
  const one = async () => {
    while (running) {
      const r = await replayOnce(m.url, m.expected).catch(() => undefined);
      if (!r) await sleep(100); // 429 while a slot frees up
      else if (r.got >= m.expected) completed++;
    }
  };
  await Promise.all(Array.from({ length: m.parallel }, one));
  parentPort.postMessage({ id: m.id, stopped: completed });
});
