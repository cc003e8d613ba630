/**
 * The other customers of the storm scenario (bench/sse-scale.bench.mjs), in a thread of their own:
 * their clients on the surviving replica and a steady flow of their records (one every 20 ms). In
 * the bench's main thread, the 5,000 reconnecting storm clients held its event loop for up to a
 * second at a time, and a publish or a receipt waiting behind them read as the platform's delay.
 * This thread shares the machine's cores, not that event loop.
 *
 * workerData: { port, gatewayKey, brokers, prefix, customers: [{ customerId, organizationId, streams }] }
 * Messages: 'stop' → { times: [{ sent, at }], loopMaxMs }.
 */
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { lib, publishRecords, quietLogger, sleep } from './harness.mjs';
import { root } from './processes.mjs';
import { openSseClient, record } from './sse-client.mjs';

const { port, gatewayKey, brokers, prefix, customers } = workerData;
const { KafkaEventLog } = await import(path.join(root, 'libs/bus/dist/adapters.js'));
const log = new KafkaEventLog({ brokers, clientId: 'bench-bystanders', prefix, logger: quietLogger });
// As in the main thread: the log learns from the spec that the topic is tenant-scoped.
await log.ensureTopic(lib('contracts').customerEventsTopic.spec);
const times = [];
const clients = await Promise.all(
  customers.flatMap((c) =>
    c.streams.map((s) =>
      openSseClient(port, s, {
        gatewayKey,
        customerId: c.customerId,
        signed: true,
        onData: (mark, _id, at) => {
          const m = /^ot-(\d+)-/.exec(mark ?? '');
          if (m) times.push({ sent: Number(m[1]), at });
        },
      }),
    ),
  ),
);
const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
let running = true;
const flow = (async () => {
  for (let n = 0; running; ) {
    const c = customers[n % customers.length];
    const t = Date.now();
    await publishRecords(log, c, 1, { batch: 1, users: 2, record: record(`ot-${t}-${n++}`) });
    await sleep(20);
  }
})();
parentPort.on('message', async (m) => {
  if (m !== 'stop') return;
  running = false;
  await flow;
  await sleep(1000); // the last ones in flight
  loop.disable();
  for (const c of clients) c.socket?.destroy();
  await log.close();
  parentPort.postMessage({ times, loopMaxMs: Number((loop.max / 1e6).toFixed(0)) });
});
parentPort.postMessage('ready');
