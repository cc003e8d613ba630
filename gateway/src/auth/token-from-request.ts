import type { IncomingMessage } from 'node:http';

/**
 * The documented `token` query parameter, or `Authorization: Bearer <token>` as an alternative. Read
 * from the raw URL: the gateway parses no query string (it goes on as sent, and an in-process
 * service parses it itself).
 */
export function tokenFromRequest(req: IncomingMessage): string | undefined {
  const url = req.url ?? '';
  const at = url.indexOf('?');
  if (at >= 0) {
    const q = new URLSearchParams(url.slice(at + 1)).get('token');
    if (q) return q;
  }
  const auth = req.headers.authorization;
  const m = auth && /^Bearer\s+(\S+)$/i.exec(auth);
  return m ? m[1] : undefined;
}
