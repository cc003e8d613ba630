/**
 * The streams service's composition root: picks adapters from config, wires use cases, starts HTTP.
 */
import { startHttpServer } from '@wellstream/http';
import { createLogger } from '@wellstream/logging';
import { createDocumentStore, createEventLog, RunningService, SharedInfra } from '@wellstream/runtime';
import { createStreamsApp } from './app';
import type { StreamsConfig } from './config';

export async function composeStreams(config: StreamsConfig, shared: SharedInfra = {}): Promise<RunningService> {
  const logger = createLogger('streams');
  const eventLog = shared.eventLog ?? createEventLog(config, logger);
  const store = createDocumentStore(config, 'streams', logger);
  const app = createStreamsApp({
    logger,
    health: async () => (await store.healthy()) && (await eventLog.healthy()),
  });
  const http = await startHttpServer(app, { host: config.WELLSTREAM_SERVICE_HOST, port: config.WELLSTREAM_SERVICE_PORT });
  return {
    name: 'streams',
    url: http.url,
    port: http.port,
    async stop() {
      await http.close();
      await store.close();
      if (!shared.eventLog) await eventLog.close();
    },
  };
}
