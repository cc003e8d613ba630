/**
 * The EventLog contract on Kafka (the real broker deploy/servers started), plus what only a real
 * broker can show: publishing and consuming across a broker restart.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createLogger } from '@wellstream/logging';
import { realServers, uniqueTestName } from '@wellstream/testing';
import { KafkaEventLog, KafkaEventLogOptions, LogMessage } from '../src';
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

describe('KafkaEventLog across a broker restart', () => {
  it('publishes before and after the restart, and the consumer receives everything', async () => {
    const stateDir = process.env.WELLSTREAM_TEST_STATE_DIR;
    if (!stateDir) throw new Error('WELLSTREAM_TEST_STATE_DIR is unset: run through the jest integration project');
    const log = new KafkaEventLog(testOptions(`${uniqueTestName('restart')}.`));
    try {
      await log.ensureTopic({ name: 'restart', partitions: 2 });
      const seen: LogMessage[] = [];
      await log.consume({ topic: 'restart', groupId: 'g', fromBeginning: true, handle: async (m) => void seen.push(m) });
      await log.publish('restart', [1, 2, 3].map((i) => ({ key: `before-${i}`, value: String(i) })));
      await until('deliveries before the restart', 30_000, () => seen.length >= 3);

      const script = path.resolve(__dirname, '../../../deploy/servers/servers.sh');
      const r = spawnSync('bash', [script, 'restart-kafka', stateDir], { encoding: 'utf8', timeout: 120_000 });
      if (r.status !== 0) throw new Error(`restart-kafka failed (${r.status}): ${r.stderr}`);

      await log.publish('restart', [4, 5, 6].map((i) => ({ key: `after-${i}`, value: String(i) })));
      await until('deliveries after the restart', 90_000, () => seen.filter((m) => m.key.startsWith('after-')).length >= 3, 200);
      expect(new Set(seen.map((m) => m.key))).toEqual(new Set(['before-1', 'before-2', 'before-3', 'after-4', 'after-5', 'after-6']));
    } finally {
      await log.close();
    }
  });
});
