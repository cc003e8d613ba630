/** Dexcom's answer shapes as simulator replies: JSON, text or HTML, and a redirect. */
import type { SimReply } from '../../../../test/simulators/kit/sim-server';

export function jsonReply(status: number, body: unknown, headers: Record<string, string> = {}): SimReply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

export function textReply(status: number, body: string, type = 'text/plain', headers: Record<string, string> = {}): SimReply {
  return { status, headers: { 'content-type': `${type}; charset=utf-8`, ...headers }, body };
}

export function redirect(location: string): SimReply {
  return { status: 302, headers: { location } };
}
