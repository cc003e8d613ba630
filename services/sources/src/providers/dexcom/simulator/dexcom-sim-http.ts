/** Small node:http helpers for the Dexcom simulator: read a body, answer JSON, HTML or a redirect. */
import type { ServerResponse } from 'node:http';

/** Shared with the other simulators (kit/sim-server); Dexcom's answers are written straight to the response. */
export { escapeHtml, readBody } from '../../../../test/simulators/kit/sim-server';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function sendText(res: ServerResponse, status: number, body: string, type = 'text/plain', headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, ...headers });
  res.end(body);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location });
  res.end();
}
