/**
 * The public marketplace endpoints under /v2/marketplace/:token (no developer token: the
 * marketplace token in the path is the credential): the page and the time zone. Its sources'
 * Connect and Disconnect are the sources service's, which owns a user's sources; the page shows
 * them from `user.sources`, this service's copy of what that service announces.
 */
import type { IRouter } from 'express';
import { declaredRoute, validate } from '@wellstream/http';
import type { UsersDeps } from '../users/users.deps';
import { usersEndpoint } from '../users-endpoints';
import { supportedTimeZones } from '../users/location-policy';
import { openMarketplace } from './open-marketplace';
import { marketplaceView, signInOrigins } from '@wellstream/contracts';
import { answerWithMarketplace, formBody, marketplaceRoute, wantsJson } from './marketplace-response';
import { sendHtml } from './page/html-document';
import { marketplacePage, sourcesFragment } from './page/marketplace-page.html';
import { chooseTimezone } from './choose-timezone/choose-timezone.usecase';
import { chooseTimezoneSchema } from './choose-timezone/choose-timezone.schema';

export function marketplaceRoutes(app: IRouter, deps: UsersDeps): void {
  const zones = supportedTimeZones();

  declaredRoute(
    app,
    usersEndpoint('openMarketplace'),
    marketplaceRoute(async (req, res) => {
      const user = await openMarketplace(deps.repo, req.params.token);
      const providers = await deps.providers.list();
      const view = marketplaceView(user, deps.marketplaceUrl(user.marketplace_token), user.sources, providers);
      if (wantsJson(req)) {
        res.set('Cache-Control', 'no-store').json(view);
        return;
      }
      if (req.query.fragment === 'sources') {
        // The page's script swaps in the re-rendered cards after an action (no full reload, no styles to re-parse).
        res.set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).send(sourcesFragment(user.marketplace_token, view, deps.clock.now()));
        return;
      }
      const notice = typeof req.query.notice === 'string' ? req.query.notice : undefined;
      const page = marketplacePage(user.marketplace_token, view, zones, deps.clock.now(), notice);
      sendHtml(res, 200, { ...page, formActionOrigins: signInOrigins(providers) });
    }),
  );

  declaredRoute(
    app,
    usersEndpoint('chooseTimezone'),
    formBody,
    marketplaceRoute(async (req, res) => {
      const user = await openMarketplace(deps.repo, req.params.token);
      const body = validate(chooseTimezoneSchema, req.body ?? {}, { kind: 'bad_request' });
      const updated = await chooseTimezone(deps, user.id, body.timezone);
      await answerWithMarketplace(deps, req, res, updated, 'timezone');
    }),
  );
}
