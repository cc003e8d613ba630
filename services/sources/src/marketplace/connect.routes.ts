/**
 * The marketplace's Connect, Reconnect and Disconnect, for every kind of source (the gateway sends
 * every path under a marketplace URL's `/sources` here; the users service draws the page). A
 * provider source's Connect answers 303 to the provider's authorize URL (the user consents there,
 * then comes back to our callback); the demo source connects at once; a phone app connects from the
 * customer's app (mobile-connect.route.ts), so its Connect here is refused with 422. Disconnect
 * and the at-once Connect answer 303 back to the marketplace, or JSON to a script: the marketplace
 * after the change for the demo source and the phone apps, what was disconnected for a provider.
 */
import express, { IRouter, Request, Response } from 'express';
import { sourceDefinition } from '@wellstream/catalog';
import { declaredRoute, route, toHttpError } from '@wellstream/http';
import { sourcesEndpoint } from '../sources-endpoints';
import { startConnect, StartConnectDeps } from '../oauth/start-connect.usecase';
import { disconnect, EndConnectionDeps } from '../connections/disconnect.usecase';
import { connectAtOnce, ConnectAtOnceDeps, connectsAtOnce, disconnectAtOnce } from '../connections/connect-at-once.usecase';
import { connectsFromTheApp, marketplaceNotFound, sourceNotOffered, unknownSource } from '../connections/source.errors';
import { marketplaceOf, MarketplaceOfDeps } from './marketplace-of';
import { sendMessagePage } from './simple-page';
import type { ProjectedUser } from '../users/user-projection';

export interface ConnectRoutesDeps {
  /** The user a marketplace token belongs to, once this service's projection has what the users service published. */
  userOf(token: string): Promise<ProjectedUser | null>;
  publicUrl: string;
  connect: StartConnectDeps;
  disconnect: EndConnectionDeps;
  atOnce: ConnectAtOnceDeps;
  view: MarketplaceOfDeps;
}

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
      const body = out.body as { errors?: string[] | Record<string, string[]>; message?: string };
      const message = Array.isArray(body.errors) ? body.errors.join(' ') : body.errors ? Object.values(body.errors).flat().join(' ') : (body.message ?? 'The request could not be processed.');
      sendMessagePage(res, out.status, 'Cannot do that', message);
    }
  });

export function connectRoutes(router: IRouter, deps: ConnectRoutesDeps): void {
  const marketplaceUrl = (token: string) => `${deps.publicUrl}/v2/marketplace/${encodeURIComponent(token)}`;

  /** After a change: the marketplace as JSON, or back to the page for a form post. */
  const answerWithMarketplace = async (req: Request, res: Response, user: ProjectedUser, notice: string) => {
    const url = marketplaceUrl(req.params.token);
    if (wantsJson(req)) res.json(await marketplaceOf(deps.view, user, url));
    else res.redirect(303, `${url}?notice=${encodeURIComponent(notice)}`);
  };

  /** Connect (`atOnce`: the demo source and phone apps connect here) or Reconnect (providers only). */
  const connect = (atOnce: boolean) =>
    pageOrJson(async (req, res) => {
      const user = await deps.userOf(req.params.token);
      const type = req.params.type;
      if (!sourceDefinition(type)) {
        if (!user || user.status !== 'active') throw marketplaceNotFound();
        throw unknownSource(type);
      }
      if (sourceDefinition(type)!.kind === 'mobile') {
        if (!user || user.status !== 'active') throw marketplaceNotFound();
        throw connectsFromTheApp(type);
      }
      if (atOnce && connectsAtOnce(type)) {
        await connectAtOnce(deps.atOnce, user, type);
        await answerWithMarketplace(req, res, user!, `connected.${type}`);
        return;
      }
      const location = await startConnect(deps.connect, user, type, marketplaceUrl(req.params.token));
      res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).redirect(303, location);
    });
  declaredRoute(router, sourcesEndpoint('connectSource'), formBody, connect(true));
  declaredRoute(router, sourcesEndpoint('reconnectProviderSource'), formBody, connect(false));

  declaredRoute(
    router,
    sourcesEndpoint('disconnectSource'),
    formBody,
    pageOrJson(async (req, res) => {
      const user = await deps.userOf(req.params.token);
      if (!user) throw marketplaceNotFound();
      const type = req.params.type;
      const kind = sourceDefinition(type)?.kind;
      if (kind === 'cloud') {
        // A provider's connection: revoked at the provider, its tokens erased.
        if (!deps.disconnect.registry.get(type)) throw sourceNotOffered(type);
        await disconnect(deps.disconnect, user._id, type, 'disconnected by the user');
        if (wantsJson(req)) res.json({ source: { type }, action: 'disconnected' });
        else res.redirect(303, `${marketplaceUrl(req.params.token)}?notice=${encodeURIComponent(`disconnected.${type}`)}`);
        return;
      }
      await disconnectAtOnce(deps.atOnce, user, type);
      await answerWithMarketplace(req, res, user, `disconnected.${type}`);
    }),
  );
}
