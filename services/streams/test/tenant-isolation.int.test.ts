/**
 * Tenant isolation on real Kafka: the same suite, plus a look at the broker's topic list to see a
 * deleted customer's topic go.
 */
import { Kafka, logLevel } from 'kafkajs';
import { realServers, uniqueTestName } from '@wellstream/testing';
import { tenantIsolationSuite } from './tenant-isolation.suite';

jest.setTimeout(120_000);
const prefix = `${uniqueTestName('tenants')}.`;
tenantIsolationSuite('distributed', {
  env: { WELLSTREAM_TOPIC_PREFIX: prefix },
  probe: () => ({
    async exists(customerId) {
      const admin = new Kafka({ clientId: 'tenant-probe', brokers: realServers().kafkaBrokers.split(','), logLevel: logLevel.NOTHING }).admin();
      await admin.connect();
      try {
        return (await admin.listTopics()).includes(`${prefix}events.tenant.${customerId}`);
      } finally {
        await admin.disconnect();
      }
    },
  }),
});
