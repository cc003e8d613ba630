/**
 * How marketplace endpoints answer: JSON for API clients and the page's script, HTML (or a 303
 * back to the page after a plain form post) for browsers; errors likewise as JSON or a page.
 */
import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { route, toHttpError } from '@wellstream/http';
import type { UsersDeps } from '../users/users.deps';
import type { User } from '../users/user';
import { sendHtml } from './page/html-document';
import { errorPage } from './page/simple-pages.html';
import { marketplaceView } from '@wellstream/contracts';

export function wantsJson(req: Request): boolean {
  if (req.accepts(['text/html', 'application/json']) === 'application/json') return true;
  return req.method === 'POST' && Boolean(req.is('application/json'));
}

/** What just happened, for the page's status line after a plain form post (scripts off). */
export type MarketplaceNotice = 'timezone';

/** After a change: the fresh marketplace as JSON, or back to the page for a form post. */
export async function answerWithMarketplace(deps: UsersDeps, req: Request, res: Response, user: User, notice: MarketplaceNotice): Promise<void> {
  const url = deps.marketplaceUrl(user.marketplace_token);
  if (wantsJson(req)) res.json(marketplaceView(user, url, user.sources, await deps.providers.list()));
  else res.redirect(303, `${url}?notice=${encodeURIComponent(notice)}`);
}

/** A marketplace handler whose errors become an HTML page when a browser asked. */
export const marketplaceRoute = (fn: (req: Request, res: Response) => Promise<void>): RequestHandler =>
  route(async (req: Request, res: Response, next: NextFunction) => {
    try {
      await fn(req, res);
    } catch (err) {
      if (wantsJson(req)) return next(err);
      const out = toHttpError(err);
      if (out.status >= 500) return next(err);
      const body = out.body as { errors?: string[] | Record<string, string[]>; message?: string };
      const message = Array.isArray(body.errors)
        ? body.errors.join(' ')
        : body.errors
          ? Object.values(body.errors).flat().join(' ')
          : (body.message ?? 'The request could not be processed.');
      sendHtml(res, out.status, errorPage(out.status, message));
    }
  });

/** Plain HTML forms post url-encoded bodies; the shared app only parses JSON. */
export const formBody: RequestHandler = express.urlencoded({ extended: false, limit: '16kb' });
