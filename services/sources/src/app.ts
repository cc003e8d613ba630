/**
 * The sources service's routes: the marketplace's source actions (every kind), the phone app's
 * connect, the OAuth callback and the webhook receivers. None takes a developer token (the gateway routes them as public paths).
 */
import type { RouteRegistration } from '@wellstream/runtime';
import { connectRoutes, ConnectRoutesDeps } from './marketplace/connect.routes';
import { mobileConnectRoute, MobileConnectDeps } from './marketplace/mobile-connect.route';
import { callbackRoute } from './oauth/callback.route';
import type { CompleteConnectDeps } from './oauth/complete-connect.usecase';
import type { ReceiveNotificationDeps } from './webhooks/receive-notification.usecase';
import { webhookRoutes } from './webhooks/webhook.routes';

/** Each route group gets what its use cases use (compose.ts builds them). */
export interface SourcesRoutesDeps {
  marketplace: ConnectRoutesDeps;
  mobile: MobileConnectDeps;
  callback: CompleteConnectDeps;
  webhooks: ReceiveNotificationDeps;
}

export const sourcesRoutes = (deps: SourcesRoutesDeps, onQueued: () => void): RouteRegistration[] => [
  (router) => connectRoutes(router, deps.marketplace),
  (router) => mobileConnectRoute(router, deps.mobile),
  (router) => callbackRoute(router, deps.callback),
  (router) => webhookRoutes(router, deps.webhooks, onQueued),
];
