/**
 * Strava's push subscription (developers.strava.com/docs/webhooks, "Subscriptions"): one per
 * application, covering every event of every athlete who authorized it; made, viewed and deleted at
 * `{apiUrl}/push_subscriptions` with the app's client_id and client_secret. It does not expire.
 *
 * The create call answers only after Strava has validated the callback with the hub.challenge GET,
 * so the service must already answer handshakes (with `verificationToken`) when it calls create.
 * The created subscription's id is returned as its `secret` too: the service keeps it sealed and
 * hands it back to parseNotification, which refuses events naming another subscription id.
 */
import type { AppSubscription, ProviderHttp, ProviderSettings, SubscriptionWant } from '../provider.port';
import { apiUrl, failureOf, send } from './strava-http';
import { badResponse, parseJson, requireId, requireObject, requireString } from './strava-json';

/** The one subscription's key (Strava has no kinds to choose: activity and athlete events all come). */
export const SUBSCRIPTION_KEY = 'events';

export const wanted = (): SubscriptionWant[] => [{ key: SUBSCRIPTION_KEY }];

const credentials = (settings: ProviderSettings) => ({ client_id: settings.clientId, client_secret: settings.clientSecret });

/**
 * Our subscription only: a subscription of the same app for another callback URL (another
 * environment) is neither ours to delete nor to renew. Strava then refuses our create (one per app),
 * which the keeper logs.
 */
export async function list(http: ProviderHttp, settings: ProviderSettings): Promise<AppSubscription[]> {
  const res = await send(http, { method: 'GET', url: apiUrl(settings, '/push_subscriptions', credentials(settings)) }, 'view subscription');
  const parsed = parseJson(res.body, 'subscription list', res.status);
  if (!Array.isArray(parsed)) throw badResponse('subscription list is not an array');
  return parsed
    .map((item, i) => requireObject(item, `subscription[${i}]`))
    .filter((o, i) => requireString(o, 'callback_url', `subscription[${i}]`) === settings.webhookUrl)
    .map((o, i) => ({ id: requireId(o, 'id', `subscription[${i}]`), key: SUBSCRIPTION_KEY }));
}

/** `POST /push_subscriptions` (form: client_id, client_secret, callback_url, verify_token) → `{"id": …}`. */
export async function create(http: ProviderHttp, settings: ProviderSettings, _want: SubscriptionWant, verificationToken: string): Promise<AppSubscription> {
  const res = await send(
    http,
    { method: 'POST', url: apiUrl(settings, '/push_subscriptions'), form: { ...credentials(settings), callback_url: settings.webhookUrl, verify_token: verificationToken } },
    'create subscription',
  );
  const id = requireId(requireObject(parseJson(res.body, 'created subscription', res.status), 'created subscription'), 'id', 'created subscription');
  return { id, key: SUBSCRIPTION_KEY, secret: id };
}

/** Nothing to renew (no expiry): confirms the subscription still exists, or bad_response so the keeper creates it anew. */
export async function renew(http: ProviderHttp, settings: ProviderSettings, sub: AppSubscription): Promise<AppSubscription> {
  const held = (await list(http, settings)).find((s) => s.id === sub.id);
  if (!held) throw badResponse(`subscription ${sub.id} does not exist at Strava`, 404);
  return held;
}

/** `DELETE /push_subscriptions/{id}?client_id&client_secret` → 204; 404 means it is already gone. */
export async function remove(http: ProviderHttp, settings: ProviderSettings, sub: AppSubscription): Promise<void> {
  const res = await http.send({ method: 'DELETE', url: apiUrl(settings, `/push_subscriptions/${encodeURIComponent(sub.id)}`, credentials(settings)) });
  if (res.status === 404) return;
  const failure = failureOf(res, 'delete subscription');
  if (failure) throw failure;
}
