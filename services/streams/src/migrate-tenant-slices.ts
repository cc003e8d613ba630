/**
 * One-time upgrade step for a log written before customer events had per-customer slices:
 * copies every event published without a tenant into its customer's slice (on Kafka, the
 * customer's topic), so replays and new streams see that history.
 *
 *   node services/streams/dist/migrate-tenant-slices.js        (same WELLSTREAM_* settings as the service)
 *
 * Run it once after every producer (records, users, rules) runs the new release. It is resumable
 * and idempotent (progress is a committed consumer group; events already in a slice are skipped),
 * so running it again, or after an interruption, copies nothing twice. The embedded log does the
 * same by itself when it opens.
 */
import { ConfigError } from '@wellstream/config';
import { customerEventsTopic } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import { createEventLog } from '@wellstream/runtime';
import { loadStreamsConfig } from './config';

async function main(): Promise<void> {
  const config = loadStreamsConfig();
  const logger = createLogger('streams-migration');
  const eventLog = createEventLog(config, logger);
  try {
    await eventLog.ensureTopic(customerEventsTopic.spec);
    const moved = await eventLog.migrateTenants(customerEventsTopic.spec.name);
    logger.info('tenant slice migration finished', { copied: moved });
  } finally {
    await eventLog.close();
  }
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(`[streams-migration] ${err.message}`);
  else console.error('[streams-migration] failed:', err);
  process.exit(1);
});
