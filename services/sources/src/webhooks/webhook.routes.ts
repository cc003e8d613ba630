/**
 * Provider notifications at `{public url}/v2/sources/<type>/webhook`: GET and HEAD answer the
 * provider's verification handshake, POST takes a notification. The raw bytes are kept (signatures
 * cover them exactly). A bad signature is 401 and fetches nothing, a malformed notification 400;
 * a good one is answered as soon as its fetch is queued.
 */
import express, { IRouter, Request } from 'express';
import { declaredRoute, route } from '@wellstream/http';
import { notFound } from '@wellstream/errors';
import { sourcesEndpoint } from '../sources-endpoints';
import { isProviderError, InboundRequest } from '../providers/provider.port';
import { AppSubscriptionKeeper } from './app-subscription-keeper';
import { receiveNotification, ReceiveNotificationDeps } from './receive-notification.usecase';

const rawBody = express.raw({ type: () => true, limit: '1mb' });

function inbound(req: Request): InboundRequest {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.query)) {
    const value = Array.isArray(v) ? v[0] : v;
    if (typeof value === 'string') query[k] = value;
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k.toLowerCase()] = v;
  const raw = (req as Request & { rawBody?: Buffer }).rawBody ?? (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
  return { method: req.method as InboundRequest['method'], query, headers, rawBody: raw };
}

export function webhookRoutes(router: IRouter, deps: ReceiveNotificationDeps, onQueued: () => void): void {
  const handshake = route(async (req, res) => {
    const provider = deps.registry.get(req.params.type);
    if (!provider) throw notFound('SOURCE_NOT_OFFERED', `The source "${req.params.type}" is not offered here.`);
    const answer = provider.adapter.handshake?.(provider.settings, inbound(req), AppSubscriptionKeeper.verificationToken(deps.vault, provider.type));
    if (!answer) {
      // Providers check that the URL answers before they subscribe it (Withings sends a HEAD/GET).
      res.status(200).json({ status: 'ok' });
      return;
    }
    if (typeof answer.body === 'string') res.status(answer.status).type('text/plain').send(answer.body);
    else if (answer.body === undefined) res.status(answer.status).end();
    else res.status(answer.status).json(answer.body);
  });
  declaredRoute(router, sourcesEndpoint('providerWebhookHandshake'), handshake);
  declaredRoute(router, sourcesEndpoint('providerWebhookProbe'), handshake);
  declaredRoute(
    router,
    sourcesEndpoint('providerWebhookNotification'),
    rawBody,
    route(async (req, res) => {
      // A provider's verification POST (Google Health's `{"type": "verification"}`, answered 201/401).
      const provider = deps.registry.get(req.params.type);
      const answer = provider?.adapter.handshake?.(provider.settings, inbound(req), AppSubscriptionKeeper.verificationToken(deps.vault, provider.type));
      if (answer) {
        res.status(answer.status).json(answer.body ?? {});
        return;
      }
      try {
        const { queued } = await receiveNotification(deps, req.params.type, inbound(req));
        if (queued > 0) onQueued();
        res.status(200).json({ status: 'ok' });
      } catch (err) {
        if (!isProviderError(err) || (err.kind !== 'bad_signature' && err.kind !== 'bad_request')) throw err;
        deps.logger.warn('refused a provider notification', { source_type: req.params.type, kind: err.kind, error: err.message });
        if (err.kind === 'bad_signature') res.status(401).json({ message: 'The notification\'s signature is not valid.' });
        else res.status(400).json({ errors: [err.message] });
      }
    }),
  );
}
