/**
 * The sources service's routes: the marketplace's provider actions, the OAuth callback and the
 * webhook receivers. None takes a developer token (the gateway routes them as public paths).
 */
import type { RouteRegistration } from '@wellstream/runtime';
import type { SourcesDeps } from './sources.deps';
import { connectRoutes } from './marketplace/connect.routes';
import { callbackRoute } from './oauth/callback.route';
import { webhookRoutes } from './webhooks/webhook.routes';

export const sourcesRoutes = (deps: SourcesDeps, onQueued: () => void): RouteRegistration[] => [
  (router) => connectRoutes(router, deps),
  (router) => callbackRoute(router, deps),
  (router) => webhookRoutes(router, deps, onQueued),
];
