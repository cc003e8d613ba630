/**
 * GET /v2/streams/:id/connect — HTTP in/out of connecting to a stream, served before express.
 *
 * An event stream lives for hours, and express gives every request it routes a hidden class of its
 * own (it swaps the request's and the response's prototypes), a few KiB that an idle client would
 * hold all that time; here a client costs what node's own request, response and socket cost, plus
 * the stream's bookkeeping. What express gave the other routes is done here too: the request id
 * and log line, metrics, the gateway's assertion (401 without it), errors in the documented shapes
 * (404, 422 member limit, 429 quota, 503 busy, 400 bad Last-Event-ID) before the event stream opens.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerError, GatewayTrustOptions, ServiceMetrics, sendJson, startRequest, verifyGatewayCall } from '@wellstream/http';
import { AppError, unauthenticated } from '@wellstream/errors';
import { runWithRequestContext } from '@wellstream/logging';
import { parsePositions } from '../event-position';
import { openSse, SseSettings } from '../sse-response';
import { ConnectDeps, prepareStreamConnection } from './connect-stream.usecase';

const CONNECT_PATH = /^\/v2\/streams\/([^/]+)\/connect\/?$/i;
const ROUTE = '/v2/streams/:id/connect';
/** Outside the handler: a closure made there would keep the request's whole scope for hours. */
const routeName = () => ROUTE;

export type RawRoute = (req: IncomingMessage, res: ServerResponse) => boolean;

export function connectStreamRoute(deps: ConnectDeps, sse: SseSettings, edge: GatewayTrustOptions & { metrics: ServiceMetrics }): RawRoute {
  return (req, res) => {
    if (req.method !== 'GET') return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const match = CONNECT_PATH.exec(q < 0 ? url : url.slice(0, q));
    if (!match) return false;
    const requestId = startRequest(edge.logger, req, res);
    edge.metrics.track('GET', res, routeName);
    runWithRequestContext({ requestId }, () => {
      connect(deps, sse, edge, req, res, url, match[1], new URLSearchParams(q < 0 ? '' : url.slice(q + 1))).catch((err) => answerError(res, err, edge.logger));
    });
    return true;
  };
}

async function connect(
  deps: ConnectDeps,
  sse: SseSettings,
  edge: GatewayTrustOptions,
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  rawId: string,
  query: URLSearchParams,
): Promise<void> {
  const verified = verifyGatewayCall(edge, req, url);
  if (verified instanceof AppError) throw verified;
  if (!verified.customerId) throw unauthenticated('NO_CALLER', 'Invalid authentication credentials.');
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    return sendJson(res, 400, { errors: ['The request path is not valid percent-encoding.'] });
  }
  const fromQuery = query.get('last_event_id') ?? undefined;
  const header = req.headers['last-event-id'];
  const resumeAfter = fromQuery !== undefined ? parsePositions(fromQuery, 'last_event_id') : parsePositions(typeof header === 'string' ? header : undefined, 'Last-Event-ID');
  const pending = await prepareStreamConnection(deps, verified.customerId, id, resumeAfter);
  if (req.destroyed || res.destroyed) {
    pending.cancel();
    return;
  }
  pending.attach(openSse(req, res, sse));
}
