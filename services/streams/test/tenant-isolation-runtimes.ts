/**
 * What tenant isolation (tenant-isolation.both.test.ts) needs of each runtime: how to let days pass
 * for the log's clean-up, and, on real Kafka, a look at the broker's topic list to see a deleted
 * customer's topic go.
 */
import type { EmbeddedEventLog } from '@wellstream/bus/adapters';
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { realServers, uniqueTestName } from '@wellstream/testing';
import { TestPlatform } from '@wellstream/platform/testing';

export interface SliceProbe {
  /** Whether the customer's slice still exists where the log keeps it (Kafka: its topic). */
  exists(customerId: string): Promise<boolean>;
}

export interface PositionKeeping {
  /**
   * Lets `days` pass for the log's clean-up (embedded: clean-up runs with a clock that far ahead),
   * or, where time cannot be moved (a real broker), checks that the log keeps an idle group's
   * position at least that long (Kafka: offsets.retention.minutes).
   */
  passDays(platform: TestPlatform, days: number): Promise<void>;
}

export interface TenantIsolationOptions {
  env?: NodeJS.ProcessEnv;
  probe?: () => SliceProbe;
  positions: PositionKeeping;
}

export const embeddedIsolation = (): TenantIsolationOptions => ({
  positions: {
    // Retention and compaction run as if 8 days had passed: committed positions must survive them.
    async passDays(platform, days) {
      await (platform.eventLog as EmbeddedEventLog).clean(Date.now() + days * 24 * 3600 * 1000);
    },
  },
});

async function withAdmin<T>(fn: (admin: ReturnType<Kafka['admin']>) => Promise<T>): Promise<T> {
  const admin = new Kafka({ clientId: 'tenant-probe', brokers: realServers().kafkaBrokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect();
  }
}

export const kafkaIsolation = (): TenantIsolationOptions => {
  const prefix = `${uniqueTestName('tenants')}.`;
  return {
    env: { WELLSTREAM_TOPIC_PREFIX: prefix },
    probe: () => ({
      exists: (customerId) => withAdmin(async (admin) => (await admin.listTopics()).includes(`${prefix}events.tenant.${customerId}`)),
    }),
    positions: {
      // A broker's clock cannot be moved: check that it keeps an empty group's positions long enough.
      async passDays(_platform, days) {
        const minutes = await withAdmin(async (admin) => {
          const { resources } = await admin.describeConfigs({
            includeSynonyms: false,
            resources: [{ type: ConfigResourceTypes.BROKER, name: '1', configNames: ['offsets.retention.minutes'] }],
          });
          return Number(resources[0].configEntries[0].configValue);
        });
        expect(minutes).toBeGreaterThanOrEqual(days * 24 * 60);
      },
    },
  };
};
