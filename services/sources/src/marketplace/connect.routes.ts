/**
 * The marketplace's Connect, Reconnect and Disconnect for provider sources (the gateway routes
 * these paths of a marketplace URL here; the users service keeps the rest of the page). Connect
 * answers 303 to the provider's authorize URL (the user consents there, then comes back to our callback); Disconnect answers 303
 * back to the marketplace, or JSON to a script.
 */
import express, { IRouter, Request, Response } from 'express';
import { declaredRoute, route, toHttpError } from '@wellstream/http';
import { delegatedEndpoint, sourcesEndpoint } from '../sources-endpoints';
import { startConnect, StartConnectDeps } from '../oauth/start-connect.usecase';
import { disconnect, EndConnectionDeps } from '../connections/disconnect.usecase';
import { marketplaceNotFound, sourceNotOffered } from '../connections/source.errors';
import { marketplaceUser } from './marketplace-user';
import { sendMessagePage } from './simple-page';
import type { UserProjectionRepository } from '../users/user-projection.repository';

export interface ConnectRoutesDeps {
  users: UserProjectionRepository;
  publicUrl: string;
  connect: StartConnectDeps;
  disconnect: EndConnectionDeps;
}

const USER_WAIT_MS = 2000;
const formBody = express.urlencoded({ extended: false, limit: '16kb' });

/** As the rest of the marketplace answers (users service): JSON to a script or a JSON post, pages to a browser. */
const wantsJson = (req: Request) => req.accepts(['text/html', 'application/json']) === 'application/json' || (req.method === 'POST' && Boolean(req.is('application/json')));

/** Errors become a page for a browser, the documented JSON for anyone else. */
const pageOrJson = (fn: (req: Request, res: Response) => Promise<void>) =>
  route(async (req: Request, res: Response, next) => {
    try {
      await fn(req, res);
    } catch (err) {
      const out = toHttpError(err);
      if (wantsJson(req) || out.status >= 500) return next(err);
      const body = out.body as { errors?: string[]; message?: string };
      sendMessagePage(res, out.status, 'Cannot do that', Array.isArray(body.errors) ? body.errors.join(' ') : (body.message ?? 'The request could not be processed.'));
    }
  });

export function connectRoutes(router: IRouter, deps: ConnectRoutesDeps): void {
  const marketplaceUrl = (token: string) => `${deps.publicUrl}/v2/marketplace/${encodeURIComponent(token)}`;

  const connect = pageOrJson(async (req, res) => {
    const user = await marketplaceUser(deps.users, req.params.token, USER_WAIT_MS);
    const location = await startConnect(deps.connect, user, req.params.type, marketplaceUrl(req.params.token));
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).redirect(303, location);
  });
  declaredRoute(router, delegatedEndpoint('connectSource'), formBody, connect);
  declaredRoute(router, sourcesEndpoint('reconnectProviderSource'), formBody, connect);

  declaredRoute(
    router,
    delegatedEndpoint('disconnectSource'),
    formBody,
    pageOrJson(async (req, res) => {
      const user = await marketplaceUser(deps.users, req.params.token, USER_WAIT_MS);
      if (!user) throw marketplaceNotFound();
      if (!deps.disconnect.registry.get(req.params.type)) throw sourceNotOffered(req.params.type);
      await disconnect(deps.disconnect, user._id, req.params.type, 'disconnected by the user');
      if (wantsJson(req)) res.json({ source: { type: req.params.type }, action: 'disconnected' });
      else res.redirect(303, `${marketplaceUrl(req.params.token)}?notice=${encodeURIComponent(`disconnected.${req.params.type}`)}`);
    }),
  );
}
