/**
 * Tenant isolation on real Kafka: the same suite, plus a look at the broker's topic list to see a
 * deleted customer's topic go.
 */
import { ConfigResourceTypes, Kafka, logLevel } from 'kafkajs';
import { realServers, uniqueTestName } from '@wellstream/testing';
import { tenantIsolationSuite } from './tenant-isolation.suite';

jest.setTimeout(120_000);
const prefix = `${uniqueTestName('tenants')}.`;

async function withAdmin<T>(fn: (admin: ReturnType<Kafka['admin']>) => Promise<T>): Promise<T> {
  const admin = new Kafka({ clientId: 'tenant-probe', brokers: realServers().kafkaBrokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.disconnect();
  }
}

tenantIsolationSuite('distributed', {
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
});
