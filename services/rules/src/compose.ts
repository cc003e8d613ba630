/**
 * The rules service's composition root: picks adapters from config, wires use cases, starts HTTP.
 */
import { startHttpServer } from '@wellstream/http';
import { createLogger } from '@wellstream/logging';
import { createDocumentStore, createEventLog, RunningService, SharedInfra } from '@wellstream/runtime';
import { createRulesApp } from './app';
import type { RulesConfig } from './config';

export async function composeRules(config: RulesConfig, shared: SharedInfra = {}): Promise<RunningService> {
  const logger = createLogger('rules');
  const eventLog = shared.eventLog ?? createEventLog(config, logger);
  const store = createDocumentStore(config, 'rules', logger);
  const app = createRulesApp({
    logger,
    health: async () => (await store.healthy()) && (await eventLog.healthy()),
  });
  const http = await startHttpServer(app, { host: config.WELLSTREAM_SERVICE_HOST, port: config.WELLSTREAM_SERVICE_PORT });
  return {
    name: 'rules',
    url: http.url,
    port: http.port,
    async stop() {
      await http.close();
      await store.close();
      if (!shared.eventLog) await eventLog.close();
    },
  };
}
