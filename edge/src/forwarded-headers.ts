/**
 * The headers a request and an answer carry across the edge. The edge is where callers enter, so
 * what it says about the caller is what it saw itself: X-Forwarded-For/-Proto/-Port/-Host are
 * replaced, never appended to (a caller's own would otherwise start the chain the gateway extends),
 * and the headers only the gateway may set (caller identity, its signed assertion) are dropped here
 * too, although the gateway drops them itself (gateway-pipeline.ts).
 */
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { ASSERTION_HEADER, CALLER_HEADERS, OPERATOR_HEADER } from '@wellstream/http';

/** Connection-level headers describe one hop (RFC 9110 7.6.1). `expect`: the body is held, there is nothing to continue. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'expect']);
const EDGE_SETS = new Set(['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-port', 'x-forwarded-host', 'forwarded', 'content-length']);
const GATEWAY_ONLY = new Set<string>([...Object.values(CALLER_HEADERS), OPERATOR_HEADER, ASSERTION_HEADER]);

/** Copies headers without the hop-by-hop ones, including those the Connection header names. */
export function withoutHopByHop(headers: IncomingHttpHeaders, drop: ReadonlySet<string> = new Set()): OutgoingHttpHeaders {
  const named = String(headers.connection ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k) && !drop.has(k) && !named.includes(k)) out[k] = v;
  return out;
}

const DROPPED_FROM_REQUESTS = new Set([...EDGE_SETS, ...GATEWAY_ONLY]);

/** The headers sent to a gateway: the caller's (Host included, as a load balancer keeps it) plus what the edge saw. */
export function upstreamRequestHeaders(req: IncomingMessage, body: Buffer | undefined): OutgoingHttpHeaders {
  const headers = withoutHopByHop(req.headers, DROPPED_FROM_REQUESTS);
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
  headers['x-forwarded-proto'] = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  headers['x-forwarded-port'] = String(req.socket.localPort ?? '');
  if (req.headers.host) headers['x-forwarded-host'] = req.headers.host;
  // The body is held whole (request-body.ts): its length is known, whatever framing the caller used.
  if (body) headers['content-length'] = String(body.length);
  return headers;
}
