/**
 * The one start-up every deployable follows: validated config → adapters → what the service itself
 * composes (repositories, outbox, consumers, schedulers) → HTTP. Everything started is registered
 * with a Lifecycle, so stop runs in reverse and a start that fails halfway stops what had started.
 */
import type { RequestListener } from 'node:http';
import { answeringNow, answeringRequest, EventLog, readYourWrites, ReadYourWrites, Subscription, TopicSpec } from '@wellstream/bus';
import type { InfraSettings, ServiceSettings } from '@wellstream/config';
import { consumeEvents, consumerGauges, EventContext, TopicDefinition } from '@wellstream/contracts';
import { HttpServerHandle, ServiceMetrics, startHttpServer } from '@wellstream/http';
import { createLogger, Logger, setLogLevel } from '@wellstream/logging';
import { Outbox, outboxGauges } from '@wellstream/outbox';
import type { Clock } from '@wellstream/clock';
import type { DocumentStore } from '@wellstream/store';
import { createDocumentStore, createEventLog } from './infra';
import { Lifecycle } from './lifecycle';
import type { RunningService, SharedInfra } from './running-service';

export interface ServiceContext<C extends InfraSettings = InfraSettings> {
  name: string;
  config: C;
  logger: Logger;
  eventLog: EventLog;
  store: DocumentStore;
  metrics: ServiceMetrics;
  lifecycle: Lifecycle;
  /** For long-lived responses (SSE): registers with the HTTP server once it listens (no request comes before). */
  trackLongLived(end: () => void): () => void;
  /** Consumes a topic in a group, with the service's logger; the subscription stops with the service. */
  consume<T>(topic: TopicDefinition<T>, options: { groupId: string; fromBeginning?: boolean; commitEveryMs?: number; handle(event: T, ctx: EventContext): Promise<void> }): Promise<Subscription>;
  /**
   * Opens the service's outbox with the platform's outbox settings, its gauges on /metrics; it stops
   * with the service. The caller starts it (`outbox.start()`) once what it publishes may flow.
   */
  openOutbox(options?: { clock?: Clock }): Promise<Outbox>;
  /**
   * Read-your-writes for a projection this service feeds from `topic` in `groupId` (libs/bus
   * read-your-writes.ts): lookups that miss wait only while the group is behind the log, at most
   * `maxWaitMs`. How they were decided is on /metrics (`read_your_writes_lookups`).
   */
  readYourWrites(topic: { spec: TopicSpec }, groupId: string, maxWaitMs: number): ReadYourWrites;
}

export interface ComposedService<X> {
  app: RequestListener & RunningService['handler'];
  /** What the service adds to its RunningService once HTTP listens (the gateway: its public URL). */
  listening?(http: HttpServerHandle): X;
}

export interface ServiceDefinition<C extends InfraSettings, X> {
  name: string;
  config: C;
  /** Default: WELLSTREAM_SERVICE_HOST and WELLSTREAM_SERVICE_PORT (the gateway listens elsewhere). */
  listen?: { host: string; port: number };
  shared?: SharedInfra;
  /** Ensured (idempotently) before anything consumes or publishes, so a process started alone works. */
  topics?: readonly { spec: TopicSpec }[];
  compose(ctx: ServiceContext<C>): Promise<ComposedService<X>>;
}

export async function startService<C extends InfraSettings, X = object>(def: ServiceDefinition<C, X>): Promise<RunningService & X> {
  setLogLevel(def.config.WELLSTREAM_LOG_LEVEL);
  const logger = createLogger(def.name);
  const lifecycle = new Lifecycle(logger);
  const shared = def.shared ?? {};
  try {
    const eventLog = shared.eventLog ?? createEventLog(def.config, logger);
    // A log shared by the process belongs to whoever created it.
    if (!shared.eventLog) lifecycle.onStop('event log', () => eventLog.close());
    const store = createDocumentStore(def.config, def.name, logger, shared);
    lifecycle.onStop('document store', () => store.close());
    for (const topic of def.topics ?? []) await eventLog.ensureTopic(topic.spec);
    const late: { http?: HttpServerHandle } = {};
    const projections = new Map<string, ReadYourWrites>();
    const ctx: ServiceContext<C> = {
      name: def.name,
      config: def.config,
      logger,
      eventLog,
      store,
      metrics: new ServiceMetrics(def.name),
      lifecycle,
      trackLongLived: (end) => (late.http ? late.http.trackLongLived(end) : () => {}),
      consume: async (topic, options) => lifecycle.started(`consumer ${options.groupId}`, await consumeEvents(eventLog, topic, { ...options, logger })),
      openOutbox: async (options = {}) => {
        const { WELLSTREAM_OUTBOX_STALE_MS: staleMs, WELLSTREAM_OUTBOX_DRAIN_MS: drainMs } = def.config;
        const outbox = lifecycle.started('outbox', await Outbox.open(store, { eventLog, logger, staleMs, drainMs, clock: options.clock }));
        for (const g of outboxGauges(outbox)) ctx.metrics.gauge(g.name, g.help, g.read);
        return outbox;
      },
      readYourWrites: (topic, groupId, maxWaitMs) => {
        const ryw = readYourWrites(eventLog, { groupId, topic: topic.spec.name, maxWaitMs });
        projections.set(groupId, ryw);
        return ryw;
      },
    };
    // Lag and counts of the groups this service consumes in (`<name>.…`), on /metrics.
    for (const g of consumerGauges(`${def.name}.`)) ctx.metrics.gauge(g.name, g.help, g.read, g.labels);
    ctx.metrics.gauge(
      'read_your_writes_lookups',
      'Projection lookups that missed, by how they were decided: level (no wait), caught-up, gave-up, unknown (the log did not say)',
      () => [...projections].flatMap(([group, r]) => Object.entries(r.outcomes).map(([outcome, value]) => ({ labels: { group, outcome }, value }))),
      ['group', 'outcome'],
    );
    ctx.metrics.gauge('requests_being_answered', 'Requests this process is answering now (until their response head); history reads give way meanwhile', () => [{ value: answeringNow() }]);
    const composed = await def.compose(ctx);
    const server = await startHttpServer(composed.app, def.listen ?? serviceListen(def.config as InfraSettings & Partial<ServiceSettings>));
    // Before the app sees it: history reads of this process give way while a request is answered.
    server.server.prependListener('request', (_req, res) => answeringRequest(res));
    late.http = server;
    lifecycle.onStop('http', () => server.close());
    const extra = composed.listening?.(server) ?? ({} as X);
    return {
      ...extra,
      name: def.name,
      handler: composed.app,
      url: server.url,
      port: server.port,
      stop: () => lifecycle.stopAll(),
    };
  } catch (err) {
    await lifecycle.stopAll().catch(() => undefined);
    throw err;
  }
}

function serviceListen(config: Partial<ServiceSettings>): { host: string; port: number } {
  if (config.WELLSTREAM_SERVICE_HOST === undefined || config.WELLSTREAM_SERVICE_PORT === undefined) throw new Error('a service needs WELLSTREAM_SERVICE_HOST and WELLSTREAM_SERVICE_PORT (or an explicit listen address)');
  return { host: config.WELLSTREAM_SERVICE_HOST, port: config.WELLSTREAM_SERVICE_PORT };
}
