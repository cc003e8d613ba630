import type { Request } from 'express';

/** The spec's `token` query parameter, or `Authorization: Bearer <token>` as an alternative. */
export function tokenFromRequest(req: Request): string | undefined {
  const q = req.query.token;
  if (typeof q === 'string' && q) return q;
  const auth = req.header('authorization');
  const m = auth && /^Bearer\s+(\S+)$/i.exec(auth);
  return m ? m[1] : undefined;
}
