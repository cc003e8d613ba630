/**
 * The EventLog contract on Kafka (the real broker deploy/servers started), plus what only a real
 * broker can show: publishing and consuming across a broker restart.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '@wellstream/logging';
import { realServers, uniqueTestName } from '@wellstream/testing';
import { LogMessage } from '../src';
import { KafkaEventLog, KafkaEventLogOptions } from '../src/adapters';
import { eventLogContract, until } from '../src/event-log.contract';

jest.setTimeout(120_000);

/** Fast rebalances for tests; compacted topics roll segments quickly so the cleaner can run. */
function testOptions(prefix: string): KafkaEventLogOptions {
  return {
    brokers: realServers().kafkaBrokers.split(','),
    clientId: 'wellstream-test',
    prefix,
    logger: createLogger('bus-test'),
    consumer: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 6_000, maxWaitTimeMs: 200, retryDelayMs: 200 },
    sliceConsumer: { sessionTimeoutMs: 6_000, heartbeatIntervalMs: 500, rebalanceTimeoutMs: 6_000, maxWaitTimeMs: 200, retryDelayMs: 200 },
    topicConfigOverrides: (spec) =>
      spec.compacted ? { 'segment.ms': '100', 'min.cleanable.dirty.ratio': '0.01', 'delete.retention.ms': '100', 'min.compaction.lag.ms': '0' } : undefined,
  };
}

eventLogContract('kafka', async () => {
  const prefix = `${uniqueTestName('bus')}.`;
  return {
    open: async () => new KafkaEventLog(testOptions(prefix)),
    compact: async () => {},
    waitMs: 45_000,
    compactionWaitMs: 60_000,
  };
});

/**
 * The restart test gets a broker of its own (same script, `servers.sh restart-kafka` on its own
 * temporary state dir): restarting the shared broker would disturb the other integration suites running in
 * parallel workers.
 */
describe('KafkaEventLog across a broker restart', () => {
  const script = path.resolve(__dirname, '../../../deploy/servers/servers.sh');
  const servers = (...args: string[]) => {
    const r = spawnSync('bash', [script, ...args], { encoding: 'utf8', timeout: 180_000 });
    if (r.status !== 0) throw new Error(`servers.sh ${args.join(' ')} failed (${r.status ?? r.signal}): ${r.stderr.slice(-2000)}`);
  };
  let stateDir = '';
  let brokers = '';

  beforeAll(() => {
    stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-kafka-restart-'));
    servers('start', stateDir, 'kafka');
    const env = fs.readFileSync(path.join(stateDir, 'servers.env'), 'utf8');
    brokers = /^WELLSTREAM_TEST_KAFKA_BROKERS=(.+)$/m.exec(env)?.[1] ?? '';
    if (!brokers) throw new Error(`no Kafka address in ${stateDir}/servers.env`);
  }, 200_000);
  afterAll(() => {
    if (!stateDir) return;
    servers('stop', stateDir, 'kafka');
    fs.rmSync(stateDir, { recursive: true, force: true });
  }, 60_000);

  it('publishes before and after the restart, and the consumer receives everything', async () => {
    const log = new KafkaEventLog({ ...testOptions(`${uniqueTestName('restart')}.`), brokers: brokers.split(',') });
    try {
      await log.ensureTopic({ name: 'restart', partitions: 2 });
      const seen: LogMessage[] = [];
      await log.consume({ topic: 'restart', groupId: 'g', fromBeginning: true, handle: async (m) => void seen.push(m) });
      await log.publish('restart', [1, 2, 3].map((i) => ({ key: `before-${i}`, value: String(i) })));
      await until('deliveries before the restart', 30_000, () => seen.length >= 3);

      servers('restart-kafka', stateDir);

      await log.publish('restart', [4, 5, 6].map((i) => ({ key: `after-${i}`, value: String(i) })));
      await until('deliveries after the restart', 90_000, () => seen.filter((m) => m.key.startsWith('after-')).length >= 3, 200);
      expect(new Set(seen.map((m) => m.key))).toEqual(new Set(['before-1', 'before-2', 'before-3', 'after-4', 'after-5', 'after-6']));
      expect(await log.healthy()).toBe(true);
    } finally {
      await log.close();
    }
  });
});
