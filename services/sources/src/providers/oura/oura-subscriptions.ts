/**
 * Oura's app-level webhook subscriptions (`/v2/webhook/subscription`, authenticated with the app's
 * `x-client-id` and `x-client-secret`): one per data_type × event_type, each with an
 * `expiration_time` the service must renew before (`PUT /v2/webhook/subscription/renew/{id}`).
 */
import type { AppSubscription, ProviderHttp, ProviderSettings, SubscriptionWant } from '../provider.port';
import { apiUrl, clientHeaders, failureOf, send } from './oura-http';
import { badResponse, Json, optionalString, parseJson, requireObject, requireString } from './oura-json';
import { EVENT_TYPES, NOTIFIED_RESOURCES } from './oura-webhooks';

/** `sleep:create`, `sleep:update`, `sleep:delete`, … for every resource Oura notifies and we sync. */
export function wanted(): SubscriptionWant[] {
  return NOTIFIED_RESOURCES.flatMap((data) => EVENT_TYPES.map((event) => ({ key: `${data}:${event}` })));
}

/** WebhookSubscriptionModel → AppSubscription (key `data_type:event_type`). */
function toSubscription(o: Json, what: string): AppSubscription & { callbackUrl: string } {
  const expiresAt = optionalString(o, 'expiration_time', what);
  return {
    id: requireString(o, 'id', what),
    key: `${requireString(o, 'data_type', what)}:${requireString(o, 'event_type', what)}`,
    callbackUrl: requireString(o, 'callback_url', what),
    ...(expiresAt ? { expiresAt: new Date(Date.parse(expiresAt)).toISOString() } : {}),
  };
}

const strip = ({ id, key, expiresAt }: AppSubscription): AppSubscription => ({ id, key, ...(expiresAt ? { expiresAt } : {}) });

/**
 * Our subscriptions only: the same Oura app may hold subscriptions for other callback URLs (another
 * environment), which this service must neither renew nor delete.
 */
export async function list(http: ProviderHttp, settings: ProviderSettings): Promise<AppSubscription[]> {
  const res = await send(http, { method: 'GET', url: apiUrl(settings, '/v2/webhook/subscription'), headers: clientHeaders(settings) }, 'list subscriptions');
  const parsed = parseJson(res.body, 'subscription list', res.status);
  if (!Array.isArray(parsed)) throw badResponse('subscription list is not an array');
  return parsed
    .map((item, i) => toSubscription(requireObject(item, `subscription[${i}]`), `subscription[${i}]`))
    .filter((s) => s.callbackUrl === settings.webhookUrl)
    .map(strip);
}

/**
 * Oura calls our webhook URL with the verification GET before it answers this request, so the
 * service must already answer handshakes (with `verificationToken`) when it calls create.
 */
export async function create(http: ProviderHttp, settings: ProviderSettings, want: SubscriptionWant, verificationToken: string): Promise<AppSubscription> {
  const [dataType, eventType] = want.key.split(':');
  const res = await send(
    http,
    {
      method: 'POST',
      url: apiUrl(settings, '/v2/webhook/subscription'),
      headers: clientHeaders(settings),
      json: { callback_url: settings.webhookUrl, verification_token: verificationToken, event_type: eventType, data_type: dataType },
    },
    'create subscription',
  );
  return strip(toSubscription(requireObject(parseJson(res.body, 'created subscription', res.status), 'created subscription'), 'created subscription'));
}

/** A 403 here is Oura's "Webhook with specified id does not exist": the service should create it anew. */
export async function renew(http: ProviderHttp, settings: ProviderSettings, sub: AppSubscription): Promise<AppSubscription> {
  const url = apiUrl(settings, `/v2/webhook/subscription/renew/${encodeURIComponent(sub.id)}`);
  const res = await http.send({ method: 'PUT', url, headers: clientHeaders(settings) });
  if (res.status === 403) throw badResponse(`subscription ${sub.id} does not exist at Oura`, 403);
  const failure = failureOf(res, 'renew subscription');
  if (failure) throw failure;
  return strip(toSubscription(requireObject(parseJson(res.body, 'renewed subscription', res.status), 'renewed subscription'), 'renewed subscription'));
}

/** 204 when deleted; 403 ("does not exist") means it is already gone, which is what we wanted. */
export async function remove(http: ProviderHttp, settings: ProviderSettings, sub: AppSubscription): Promise<void> {
  const url = apiUrl(settings, `/v2/webhook/subscription/${encodeURIComponent(sub.id)}`);
  const res = await http.send({ method: 'DELETE', url, headers: clientHeaders(settings) });
  if (res.status === 403) return;
  const failure = failureOf(res, 'delete subscription');
  if (failure) throw failure;
}
