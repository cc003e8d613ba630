#!/usr/bin/env node
/**
 * Publishing to Kafka (the distributed runtime's outbox relays and services publish this way):
 * `--writers` concurrent publishers, each publishing one-event batches back to back to customer
 * topics (shared topic + the customer's slice, as records' events go), for `--seconds`; then the
 * same with `--batch`-event batches. Prints events/s and publish latency p50/p99, beside the
 * broker's round trip for a single one-event publish with nothing else in flight (the reference).
 *
 *   node bench/kafka-publish.bench.mjs [--writers 16] [--seconds 10] [--batch 50] [--root DIR]
 *
 * `--root DIR` publishes with another built checkout's libs/bus (before/after in one window).
 * Loopback only; bounded by time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { args, lib, pct, publishRecords, quietLogger, ROOT, sleep, startServers } from './harness.mjs';
import { record } from './sse-client.mjs';

const WRITERS = Number(args.writers ?? 16);
const SECONDS = Number(args.seconds ?? 10);
const BATCH = Number(args.batch ?? 50);

async function run(log, customers, batch, writers, seconds) {
  const times = [];
  let events = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let i = 0; Date.now() < until; i++) {
        const t = Date.now();
        await publishRecords(log, customers[(w + i) % customers.length], batch, { users: 10, batch, record: record(`kp-${w}-${i}`) });
        times.push(Date.now() - t);
        events += batch;
      }
    }),
  );
  return { events_per_second: Math.round(events / seconds), publish_p50_ms: pct(times, 50), publish_p99_ms: pct(times, 99) };
}

const servers = startServers();
try {
  const adapters = path.join(ROOT, 'libs/bus/dist/adapters.js');
  const { KafkaEventLog } = await import(fs.existsSync(adapters) ? adapters : path.join(ROOT, 'libs/bus/dist/index.js'));
  const log = new KafkaEventLog({ brokers: servers.env.WELLSTREAM_KAFKA_BROKERS.split(','), clientId: 'bench', prefix: 'kp.', logger: quietLogger });
  await log.ensureTopic(lib('contracts').customerEventsTopic.spec);
  const customers = Array.from({ length: 20 }, (_, i) => ({ customerId: `cus_kp${i}`, organizationId: `org_kp${i}` }));
  for (const c of customers) await publishRecords(log, c, 1, { users: 1, batch: 1, record: record('warm') });
  await run(log, customers, 1, WRITERS, 2); // warm-up
  const reference = await run(log, customers, 1, 1, 3);
  const single = await run(log, customers, 1, WRITERS, SECONDS);
  await sleep(500);
  const batched = await run(log, customers, BATCH, WRITERS, SECONDS);
  console.log(
    JSON.stringify(
      {
        root: ROOT,
        reference_one_writer: reference,
        [`${WRITERS}_writers_1_event`]: { ...single, p99_to_reference_p99: Number((single.publish_p99_ms / Math.max(1, reference.publish_p99_ms)).toFixed(2)) },
        [`${WRITERS}_writers_${BATCH}_events`]: batched,
      },
      null,
      2,
    ),
  );
  await log.close();
} finally {
  servers.stop();
}
process.exit(0);
