/**
 * The one-process runtime: the gateway and every service in this one process, each service still its
 * own express app on its own loopback port behind the gateway, all sharing one embedded event log.
 * `npm start` and the HTTP tests both use it.
 */
import type { EventLog } from '@wellstream/bus';
import { generateGatewayKey } from '@wellstream/config';
import { createLogger, setLogLevel } from '@wellstream/logging';
import { createEventLog, RunningService, SharedInfra } from '@wellstream/runtime';
import { composeGateway, loadGatewayConfig, RunningGateway, ServiceName } from '@wellstream/gateway';
import { composeUsers, loadUsersConfig } from '@wellstream/users-service';
import { composeRecords, loadRecordsConfig } from '@wellstream/records-service';
import { composeStreams, loadStreamsConfig } from '@wellstream/streams-service';
import { composeNotifications, loadNotificationsConfig } from '@wellstream/notifications-service';
import { composeRules, loadRulesConfig } from '@wellstream/rules-service';
import { composeSources, loadSourcesConfig } from '@wellstream/sources-service';

export interface RunningPlatform {
  /** Where the gateway listens, e.g. http://127.0.0.1:8080 */
  url: string;
  /** base_url = streams_url */
  baseUrl: string;
  publicUrl: string;
  adminToken: string;
  adminTokenGenerated: boolean;
  gateway: RunningGateway;
  services: RunningService[];
  eventLog: EventLog;
  stop(): Promise<void>;
}

export async function startPlatform(envIn: NodeJS.ProcessEnv = process.env, hooks: Pick<SharedInfra, 'observeStore' | 'clock'> = {}): Promise<RunningPlatform> {
  // The services in this process believe only the gateway, exactly as in distributed mode; without a
  // configured key, one generated for this process's lifetime is all they need to share.
  const env: NodeJS.ProcessEnv = { ...envIn, WELLSTREAM_GATEWAY_KEYS: envIn.WELLSTREAM_GATEWAY_KEYS || generateGatewayKey() };
  // Validate settings before anything opens a file or a port. WELLSTREAM_MODE=distributed runs the
  // same single process on Kafka, MongoDB and Redis (tests use it to run one suite on both).
  const gatewayConfig = loadGatewayConfig(env, { servicesInProcess: true });
  const mode = gatewayConfig.WELLSTREAM_MODE;
  setLogLevel(gatewayConfig.WELLSTREAM_LOG_LEVEL);
  const logger = createLogger('platform');
  const eventLog = createEventLog(gatewayConfig, logger);
  const shared: SharedInfra = { eventLog, ...hooks };
  const started: RunningService[] = [];
  let gateway: RunningGateway | undefined;
  const stopAll = async () => {
    for (const s of [...(gateway ? [gateway] : []), ...started.reverse()]) {
      await s.stop().catch((err) => logger.error('stop failed', { service: s.name, error: err }));
    }
    await eventLog.close();
  };
  try {
    // The gateway comes first so that services learn the public URL (it follows the bound port).
    gateway = await composeGateway(gatewayConfig, shared, {});
    const serviceEnv = {
      ...env,
      WELLSTREAM_MODE: mode,
      WELLSTREAM_SERVICE_HOST: '127.0.0.1',
      WELLSTREAM_SERVICE_PORT: '0',
      WELLSTREAM_PUBLIC_URL: gateway.publicUrl,
    };
    // Each service validates its own settings, starts on its own loopback port and is then routed.
    const services = [
      () => composeUsers(loadUsersConfig(serviceEnv), shared),
      () => composeRecords(loadRecordsConfig(serviceEnv), shared),
      () => composeStreams(loadStreamsConfig(serviceEnv), shared),
      () => composeNotifications(loadNotificationsConfig(serviceEnv), shared),
      () => composeRules(loadRulesConfig(serviceEnv), shared),
      () => composeSources(loadSourcesConfig(serviceEnv), shared),
    ];
    for (const compose of services) {
      const service = await compose();
      started.push(service);
      gateway.directory[service.name as ServiceName] = service.url;
      if (service.handler) gateway.inProcess[service.name as ServiceName] = service.handler;
    }
  } catch (err) {
    await stopAll();
    throw err;
  }
  const gw = gateway;
  return {
    url: gw.url,
    baseUrl: `${gw.publicUrl}/v2`,
    publicUrl: gw.publicUrl,
    adminToken: gw.adminToken,
    adminTokenGenerated: gw.adminTokenGenerated,
    gateway: gw,
    services: started,
    eventLog,
    stop: stopAll,
  };
}
