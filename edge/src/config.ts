/**
 * The edge's settings: where it listens, which gateways it spreads requests over, and how it checks
 * them. Read once at start-up through joi (libs/config), so a bad value stops the process before it
 * listens, with the variable named on stderr, like every other deployable.
 */
import Joi from 'joi';
import { loadConfig, logLevelSchema } from '@wellstream/config';

export interface EdgeConfig {
  WELLSTREAM_HOST: string;
  WELLSTREAM_PORT: number;
  /** Comma list of gateway base URLs (http only: the gateways sit beside the edge, on its network). */
  WELLSTREAM_EDGE_UPSTREAMS: string[];
  /** How often each gateway's /health is asked, and how long an answer may take. */
  WELLSTREAM_EDGE_HEALTH_INTERVAL_MS: number;
  WELLSTREAM_EDGE_HEALTH_TIMEOUT_MS: number;
  /** A request body is held whole before it is sent (so it can be sent again elsewhere): at most this many bytes. */
  WELLSTREAM_EDGE_MAX_BODY_BYTES: number;
  /** Bound on connecting to a gateway; past it the next gateway is tried. */
  WELLSTREAM_EDGE_CONNECT_TIMEOUT_MS: number;
  /** Bound on a gateway starting its answer (above the gateway's own 30 s bound for a service). */
  WELLSTREAM_EDGE_HEAD_TIMEOUT_MS: number;
  WELLSTREAM_LOG_LEVEL: 'error' | 'warn' | 'info' | 'debug' | 'silent';
}

const upstream = Joi.string().uri({ scheme: ['http'] }).message('each entry must be an http:// URL (e.g. http://gateway-a:8080)');

export const edgeConfigSchema = Joi.object<EdgeConfig>({
  WELLSTREAM_HOST: Joi.string().default('127.0.0.1').description('the address the edge listens on'),
  WELLSTREAM_PORT: Joi.number().port().default(8080).description('the port the edge listens on'),
  WELLSTREAM_EDGE_UPSTREAMS: Joi.array()
    .items(upstream)
    .min(1)
    .unique()
    .single()
    .required()
    .messages({ 'any.required': 'WELLSTREAM_EDGE_UPSTREAMS is required (comma list of gateway URLs, e.g. http://gateway-a:8080,http://gateway-b:8080)' })
    .description('the gateways the edge spreads requests over: a comma list of http:// base URLs (they sit beside the edge, on its network)'),
  WELLSTREAM_EDGE_HEALTH_INTERVAL_MS: Joi.number().integer().min(50).max(60_000).default(500)
    .description("how often the edge asks each gateway's `/health`"),
  WELLSTREAM_EDGE_HEALTH_TIMEOUT_MS: Joi.number().integer().min(50).max(60_000).default(1_000)
    .description("how long a gateway's `/health` answer may take before it counts as failed"),
  // The services take JSON bodies up to 5 MiB (libs/http create-service-app.ts) and answer 413
  // themselves past it; a little more here, so a body just over theirs still gets their answer.
  WELLSTREAM_EDGE_MAX_BODY_BYTES: Joi.number().integer().min(1).default(8 * 1024 * 1024)
    .description('the largest request body the edge holds whole before sending it (so it can be sent again to another gateway); past it 413'),
  WELLSTREAM_EDGE_CONNECT_TIMEOUT_MS: Joi.number().integer().min(50).max(60_000).default(2_000)
    .description('bound on connecting to a gateway; past it the next gateway is tried'),
  WELLSTREAM_EDGE_HEAD_TIMEOUT_MS: Joi.number().integer().min(100).default(40_000)
    .description("bound on a gateway starting its answer (above the gateway's own 30 s bound for a service)"),
  WELLSTREAM_LOG_LEVEL: logLevelSchema(),
});

export function loadEdgeConfig(env: NodeJS.ProcessEnv = process.env): EdgeConfig {
  const upstreams = env.WELLSTREAM_EDGE_UPSTREAMS;
  // A comma list in the environment; joi checks each entry (and that there is at least one).
  const split = upstreams === undefined ? undefined : upstreams.split(',').map((s) => s.trim()).filter(Boolean);
  return loadConfig(edgeConfigSchema, { ...env, WELLSTREAM_EDGE_UPSTREAMS: split as unknown as string | undefined });
}
