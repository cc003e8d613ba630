import type { EmbeddedEventLog } from '@wellstream/bus/adapters';
import { tenantIsolationSuite } from './tenant-isolation.suite';

jest.setTimeout(60_000);
tenantIsolationSuite('embedded', {
  positions: {
    // Retention and compaction run as if 8 days had passed: committed positions must survive them.
    async passDays(platform, days) {
      await (platform.eventLog as EmbeddedEventLog).clean(Date.now() + days * 24 * 3600 * 1000);
    },
  },
});
