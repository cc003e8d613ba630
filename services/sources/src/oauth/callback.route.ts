/**
 * The provider sends the browser back here (`{public url}/v2/sources/<type>/callback`): 303 to the
 * user's marketplace with what happened, or a 400 page when the state is forged, expired or
 * replayed (nothing is stored then).
 */
import type { IRouter } from 'express';
import { declaredRoute, route, toHttpError } from '@wellstream/http';
import { sourcesEndpoint } from '../sources-endpoints';
import { sendMessagePage } from '../marketplace/simple-page';
import { completeConnect, CompleteConnectDeps } from './complete-connect.usecase';

const first = (v: unknown): string | undefined => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined);

export function callbackRoute(router: IRouter, deps: CompleteConnectDeps): void {
  declaredRoute(
    router,
    sourcesEndpoint('providerCallback'),
    route(async (req, res, next) => {
      try {
        const outcome = await completeConnect(deps, req.params.type, { code: first(req.query.code), state: first(req.query.state), error: first(req.query.error), scope: first(req.query.scope) });
        res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).redirect(303, outcome.redirectTo);
      } catch (err) {
        const out = toHttpError(err);
        if (out.status >= 500) return next(err);
        const body = out.body as { errors?: string[] | Record<string, string[]>; message?: string };
        const message = Array.isArray(body.errors) ? body.errors.join(' ') : body.errors ? Object.values(body.errors).flat().join(' ') : (body.message ?? 'The request could not be processed.');
        sendMessagePage(res, out.status, 'This sign-in link cannot be used', message);
      }
    }),
  );
}
