/**
 * Prometheus metrics (prom-client) for one service or the gateway, served at GET /metrics by the
 * shared app factory: prom-client's default process metrics (event-loop delay, heap, GC, CPU),
 * request counts and latencies by route and status, open Server-Sent-Event responses, and what
 * the composition root adds (outbox backlog, consumer lag, push attempts, rate-limit errors).
 * One registry per app, so the one-process platform still serves each service's own numbers.
 */
import type { ServerResponse } from 'node:http';
import type { Express, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Route labels: express's route when one matched, else a template (ids replaced), never a raw path. */
const COLLECTIONS = new Set(['organizations', 'users', 'streams', 'marketplace', 'rules', 'notifications', 'customers', 'tokens', 'sources', 'batches']);
const ROUTE_LOCAL = 'wsMetricsRoute';

export function routeTemplate(path: string): string {
  const parts = path.split('/');
  return parts
    .map((seg, i) => {
      if (i === 0 || seg === '') return seg;
      if (COLLECTIONS.has(parts[i - 1]) && !COLLECTIONS.has(seg)) return ':id';
      return /^[a-z_]{1,40}$/.test(seg) || /^v\d$/.test(seg) ? seg : ':id';
    })
    .join('/');
}

/** Lets a handler name its route for the metrics (e.g. the gateway's proxy rule). */
export function setMetricsRoute(res: Response, label: string): void {
  res.locals[ROUTE_LOCAL] = label;
}

/**
 * prom-client's default metrics (event-loop delay, heap, GC, CPU) describe the process, and each
 * collector installs monitors that run for the life of the process: one set per process, shared by
 * every app in it (the one-process platform runs six), instead of one per app.
 */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export interface GaugeSample {
  labels?: Record<string, string>;
  value: number;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route' | 'status'>;
  private readonly openResponses = new Set<ServerResponse>();

  constructor(readonly service: string) {
    this.registry.setDefaultLabels({ service });
    this.requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route and status', labelNames: ['method', 'route', 'status'], registers: [this.registry] });
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request (an SSE response: until it ends), by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [this.registry],
    });
    const open = this.openResponses;
    new Gauge({
      name: 'sse_clients',
      help: 'Server-Sent-Event responses open now',
      registers: [this.registry],
      collect() {
        let n = 0;
        for (const res of open) if (res.headersSent && String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')) n++;
        this.set(n);
      },
    });
  }

  /** Counts and times every request of `app` and serves GET /metrics; mount it before any route. */
  mount(app: Express): void {
    app.use(this.middleware());
    app.get('/metrics', (_req, res, next) => {
      this.render().then(({ contentType, body }) => void res.type(contentType).send(body), next);
    });
  }

  /** Counts and times every request; register it first. */
  middleware(): RequestHandler {
    return (req, res, next) => {
      if (req.path === '/metrics') return next();
      this.track(req.method, res, () => (res.locals[ROUTE_LOCAL] as string | undefined) ?? (req.route?.path !== undefined && typeof req.route.path === 'string' ? `${req.baseUrl}${req.route.path}` : routeTemplate(req.path)));
      next();
    };
  }

  /** Counts and times one request, labelled with the route `routeOf` names once it is answered. */
  track(method: string, res: ServerResponse, routeOf: () => string): void {
    const started = process.hrtime.bigint();
    this.openResponses.add(res);
    res.on('close', () => {
      this.openResponses.delete(res);
      const labels = { method, route: routeOf(), status: String(res.statusCode) };
      this.requests.inc(labels);
      this.durations.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
  }

  /** A gauge read at scrape time; a failing or slow read reports nothing rather than holding the scrape. */
  gauge(name: string, help: string, read: () => Promise<GaugeSample[]> | GaugeSample[], labelNames: string[] = []): void {
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        let timer: NodeJS.Timeout | undefined;
        try {
          const samples = await Promise.race([
            Promise.resolve(read()),
            new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), 1_000))),
          ]);
          this.reset();
          for (const s of samples) {
            if (s.labels) this.set(s.labels, s.value);
            else this.set(s.value);
          }
        } catch {
          this.reset();
        } finally {
          clearTimeout(timer);
        }
      },
    });
  }

  /** A counter the caller increments. */
  counter<L extends string>(name: string, help: string, labelNames: L[]): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /** This registry's metrics and the process's default metrics, all labelled with the service. */
  async render(): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([processMetrics(), this.registry]);
    merged.setDefaultLabels({ service: this.service });
    return { contentType: this.registry.contentType, body: await merged.metrics() };
  }
}
