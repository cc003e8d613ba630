/**
 * The Oura simulator's webhook side: the subscription routes (`/v2/webhook/subscription`, app
 * credentials in `x-client-id`/`x-client-secret`), the verification GET Oura sends to the callback
 * while creating one (`verification_token` + `challenge`, answer `{"challenge": …}`), and signed
 * notifications (`x-oura-signature` = upper-case hex HMAC-SHA256 of `x-oura-timestamp` + body,
 * keyed with the client secret).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { json, problem, SimReply } from './oura-sim-api';
import { postToWebhook } from '../../../../test/simulators/kit/sim-base';

/** ExtApiV2DataType and WebhookOperation of Oura's OpenAPI document. */
export const DATA_TYPES = [
  'tag', 'enhanced_tag', 'workout', 'session', 'sleep', 'daily_sleep', 'daily_readiness', 'daily_activity', 'daily_spo2', 'sleep_time',
  'rest_mode_period', 'ring_configuration', 'daily_stress', 'daily_cycle_phases', 'activation_status', 'daily_cardiovascular_age',
  'daily_resilience', 'vo2_max', 'period_start', 'pregnancy', 'fertile_window', 'ovulation_confirmed', 'blood_glucose',
];
export const EVENT_TYPES = ['create', 'update', 'delete'];

interface Subscription {
  id: string;
  callback_url: string;
  event_type: string;
  data_type: string;
  expiration_time: string;
  verification_token: string;
}

const model = ({ verification_token: _, ...s }: Subscription) => s;

export function signNotification(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(timestamp + body).digest('hex').toUpperCase();
}

export class OuraWebhooks {
  readonly held = new Map<string, Subscription>();

  constructor(
    private readonly client: { id: string; secret: string },
    /** Oura does not document a lifetime; the simulator's is a setting (30 days by default). */
    private readonly lifetimeMs: number,
  ) {}

  private expiry = () => new Date(Date.now() + this.lifetimeMs).toISOString().replace('Z', '+00:00');

  /** Every route under /v2/webhook/subscription, or undefined for another path. */
  async route(method: string, path: string, headers: Record<string, string | undefined>, body: string): Promise<SimReply | undefined> {
    if (!path.startsWith('/v2/webhook/subscription')) return undefined;
    if (headers['x-client-id'] !== this.client.id || headers['x-client-secret'] !== this.client.secret) return problem(401, 'Invalid client credentials');
    const renew = /^\/v2\/webhook\/subscription\/renew\/([^/]+)$/.exec(path);
    const one = /^\/v2\/webhook\/subscription\/([^/]+)$/.exec(path);
    if (path === '/v2/webhook/subscription' && method === 'GET') return json(200, [...this.held.values()].map(model));
    if (path === '/v2/webhook/subscription' && method === 'POST') return this.create(body);
    if (renew && method === 'PUT') {
      const sub = this.held.get(decodeURIComponent(renew[1]));
      if (!sub) return problem(403, 'Webhook with specified id does not exist.');
      sub.expiration_time = this.expiry();
      return json(200, model(sub));
    }
    if (one) {
      const id = decodeURIComponent(one[1]);
      const sub = this.held.get(id);
      if (!sub) return problem(403, 'Webhook with specified id does not exist.');
      if (method === 'GET') return json(200, model(sub));
      if (method === 'DELETE') {
        this.held.delete(id);
        return { status: 204 };
      }
    }
    return problem(405, 'Method Not Allowed');
  }

  private async create(body: string): Promise<SimReply> {
    let req: Record<string, unknown>;
    try {
      req = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return json(422, { detail: [{ loc: ['body'], msg: 'invalid JSON', type: 'value_error.jsondecode' }] });
    }
    const errors = [
      ['callback_url', typeof req.callback_url === 'string' && /^https?:\/\//.test(req.callback_url)],
      ['verification_token', typeof req.verification_token === 'string' && req.verification_token.length > 0],
      ['event_type', EVENT_TYPES.includes(String(req.event_type))],
      ['data_type', DATA_TYPES.includes(String(req.data_type))],
    ]
      .filter(([, ok]) => !ok)
      .map(([field]) => ({ loc: ['body', field], msg: 'field required or invalid', type: 'value_error' }));
    if (errors.length) return json(422, { detail: errors });
    const sub: Subscription = {
      id: randomUUID(),
      callback_url: String(req.callback_url),
      event_type: String(req.event_type),
      data_type: String(req.data_type),
      expiration_time: this.expiry(),
      verification_token: String(req.verification_token),
    };
    // Oura verifies the endpoint before the subscription exists: GET with the token and a challenge.
    if (!(await this.verify(sub))) return problem(400, 'Webhook verification failed', 'The callback did not answer the challenge');
    this.held.set(sub.id, sub);
    return json(201, model(sub));
  }

  private async verify(sub: Subscription): Promise<boolean> {
    const challenge = randomBytes(12).toString('hex');
    const url = new URL(sub.callback_url);
    url.searchParams.set('verification_token', sub.verification_token);
    url.searchParams.set('challenge', challenge);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(10_000) }); // Oura: answer within 10 seconds
      if (res.status !== 200) return false;
      const answer = (await res.json()) as { challenge?: unknown };
      return answer?.challenge === challenge;
    } catch {
      return false;
    }
  }

  /** POSTs the documented notification body, signed with `secret` (the client secret unless forging). */
  async deliver(url: string, body: Record<string, unknown>, secret = this.client.secret): Promise<number> {
    const raw = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    return postToWebhook(url, raw, { 'content-type': 'application/json', 'x-oura-signature': signNotification(secret, timestamp, raw), 'x-oura-timestamp': timestamp }, 10_000);
  }
}
