/**
 * Polar's app-level webhook (`/v3/webhooks`, HTTP Basic with the client credentials). "Client
 * application can only have one webhook registered", holding a list of event types, so we want one
 * subscription whose key is its sorted event types. Creating it makes Polar POST a PING to our URL
 * (answered 200 by parseNotification) and returns `signature_secret_key` "only" then: it is handed
 * to the service as AppSubscription.secret. Webhooks do not expire, but Polar deactivates one whose
 * deliveries failed for seven days; such a webhook is listed under a different key
 * (`…:inactive`), so the service creates it anew, which replaces it (and its secret).
 */
import type { AppSubscription, ProviderHttp, ProviderSettings, SubscriptionWant } from '../provider.port';
import { apiUrl, basic, failureOf, send } from './polar-http';
import { badResponse, Json, optionalString, parseJson, requireArray, requireId, requireObject, requireString } from './polar-json';
import { EVENT_RESOURCES } from './polar-webhooks';

export const WANTED_EVENTS = Object.keys(EVENT_RESOURCES).sort();
const keyOf = (events: string[]) => [...events].sort().join(',');

export function wanted(): SubscriptionWant[] {
  return [{ key: keyOf(WANTED_EVENTS) }];
}

interface Held {
  id: string;
  key: string;
  url: string;
}

function readWebhook(o: Json, what: string): Held {
  const events = requireArray(o.events, `${what}.events`).map((e) => {
    if (typeof e !== 'string') throw badResponse(`${what}.events holds a non-string`);
    return e;
  });
  const inactive = o.active === false;
  return { id: requireId(o, 'id', what), key: keyOf(events) + (inactive ? ':inactive' : ''), url: requireString(o, 'url', what) };
}

async function held(http: ProviderHttp, settings: ProviderSettings): Promise<Held[]> {
  const res = await send(http, { method: 'GET', url: apiUrl(settings, '/v3/webhooks'), headers: basic(settings) }, 'get webhook');
  if (res.status === 204 || res.body.trim() === '') return [];
  const root = requireObject(parseJson(res.body, 'webhook info', res.status), 'webhook info');
  const data = root.data === undefined || root.data === null ? [] : requireArray(root.data, 'webhook info.data');
  return data.map((w, i) => readWebhook(requireObject(w, `webhook[${i}]`), `webhook[${i}]`));
}

/** Ours only: a webhook at another URL (another environment sharing the client) is not ours to touch. */
export async function list(http: ProviderHttp, settings: ProviderSettings): Promise<AppSubscription[]> {
  return (await held(http, settings)).filter((w) => w.url === settings.webhookUrl).map(({ id, key }) => ({ id, key }));
}

async function post(http: ProviderHttp, settings: ProviderSettings, events: string[]) {
  return http.send({ method: 'POST', url: apiUrl(settings, '/v3/webhooks'), headers: basic(settings), json: { events, url: settings.webhookUrl } });
}

/**
 * 201 `{data: {id, events, url, signature_secret_key}}`. 400 "Webhook cannot be created" (our URL
 * did not answer the PING with 200, or a bad URL). 409 "Webhook already exists": when it is at our
 * URL (other events, or deactivated) it is deleted and created again, the only way to a secret we
 * hold; at another URL it is left alone and the create fails.
 */
export async function create(http: ProviderHttp, settings: ProviderSettings, want: SubscriptionWant): Promise<AppSubscription> {
  const events = want.key.replace(/:inactive$/, '').split(',').filter(Boolean);
  let res = await post(http, settings, events);
  if (res.status === 409) {
    const existing = await held(http, settings);
    const ours = existing.filter((w) => w.url === settings.webhookUrl);
    if (ours.length === 0) throw badResponse('Polar holds this client\'s only webhook for another URL; delete it there first', 409);
    for (const w of ours) await remove(http, settings, w);
    res = await post(http, settings, events);
  }
  if (res.status === 400) throw badResponse(`webhook cannot be created (did ${settings.webhookUrl} answer Polar's PING with 200?)`, 400);
  const failure = failureOf(res, 'create webhook');
  if (failure) throw failure;
  const data = requireObject(requireObject(parseJson(res.body, 'created webhook', res.status), 'created webhook').data, 'created webhook.data');
  const secret = optionalString(data, 'signature_secret_key', 'created webhook.data');
  if (!secret) throw badResponse('created webhook has no signature_secret_key: its notifications could never be verified');
  const hook = readWebhook(data, 'created webhook.data');
  return { id: hook.id, key: hook.key, secret };
}

/** Nothing expires; "renewing" re-activates a deactivated webhook (Polar PINGs our URL again). */
export async function renew(http: ProviderHttp, settings: ProviderSettings, sub: AppSubscription): Promise<AppSubscription> {
  const res = await send(http, { method: 'POST', url: apiUrl(settings, '/v3/webhooks/activate'), headers: basic(settings) }, 'activate webhook');
  if (res.status === 204) throw badResponse('webhook does not exist and cannot be activated', 204);
  return { id: sub.id, key: sub.key.replace(/:inactive$/, '') };
}

/** 204 when deleted; 404 ("Webhook not found") means it is already gone, which is what we wanted. */
export async function remove(http: ProviderHttp, settings: ProviderSettings, sub: { id: string }): Promise<void> {
  const res = await http.send({ method: 'DELETE', url: apiUrl(settings, `/v3/webhooks/${encodeURIComponent(sub.id)}`), headers: basic(settings) });
  if (res.status === 404) return;
  const failure = failureOf(res, 'delete webhook');
  if (failure) throw failure;
}
