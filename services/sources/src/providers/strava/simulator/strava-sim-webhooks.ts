/**
 * The Strava simulator's push subscription API and event deliveries, after
 * developers.strava.com/docs/webhooks: one subscription per application at
 * `/api/v3/push_subscriptions` (client_id and client_secret in the form or query); create validates
 * the callback first with `GET callback?hub.verify_token=…&hub.challenge=…&hub.mode=subscribe`, which
 * must answer 200 with `{"hub.challenge": …}` within two seconds; view lists it; DELETE removes it
 * (204). Events are POSTed as JSON `{aspect_type, event_time, object_id, object_type, owner_id,
 * subscription_id, updates}`, unsigned, and must be answered 200 within two seconds.
 */
import { randomBytes } from 'node:crypto';
import { fault, json, SimReply } from './strava-sim-auth';
import { wireJson } from './strava-sim-data';

export interface PushSubscription {
  id: number;
  callback_url: string;
  created_at: string;
  updated_at: string;
}

export interface StravaEvent {
  aspect_type: 'create' | 'update' | 'delete';
  event_time: number;
  object_id: bigint;
  object_type: 'activity' | 'athlete';
  owner_id: bigint;
  subscription_id: number;
  updates: Record<string, string>;
}

export class StravaWebhooks {
  held?: PushSubscription;
  private nextId = 120475;

  constructor(private readonly client: { id: string; secret: string; applicationId: number }) {}

  /** `/api/v3/push_subscriptions[/{id}]`, or undefined when the path is not one of these. */
  async route(method: string, path: string, params: URLSearchParams): Promise<SimReply | undefined> {
    const one = /^\/api\/v3\/push_subscriptions\/([^/]+)$/.exec(path);
    if (path !== '/api/v3/push_subscriptions' && !one) return undefined;
    if (params.get('client_id') !== this.client.id || params.get('client_secret') !== this.client.secret) {
      return fault(401, 'Authorization Error', [{ resource: 'Application', field: 'client_id', code: 'invalid' }]);
    }
    if (!one && method === 'GET') return json(200, this.held ? [{ ...this.held, resource_state: 2, application_id: this.client.applicationId }] : []);
    if (!one && method === 'POST') return this.create(params);
    if (one && method === 'DELETE') {
      if (!this.held || String(this.held.id) !== decodeURIComponent(one[1])) return fault(404, 'Resource Not Found', [{ resource: 'PushSubscription', field: 'id', code: 'not found' }]);
      this.held = undefined;
      return { status: 204 };
    }
    return fault(404, 'Resource Not Found');
  }

  private async create(form: URLSearchParams): Promise<SimReply> {
    const callback = form.get('callback_url');
    const verifyToken = form.get('verify_token');
    if (!callback || !/^https?:\/\//.test(callback) || callback.length > 255) return fault(400, 'Bad Request', [{ resource: 'PushSubscription', field: 'callback url', code: 'invalid' }]);
    if (!verifyToken) return fault(400, 'Bad Request', [{ resource: 'PushSubscription', field: 'verify token', code: 'missing' }]);
    if (this.held) return fault(400, 'Bad Request', [{ resource: 'PushSubscription', field: '', code: 'already exists' }]);
    if (!(await this.validate(callback, verifyToken))) return fault(400, 'Bad Request', [{ resource: 'PushSubscription', field: 'callback url', code: 'GET to callback URL does not return 200' }]);
    const now = new Date().toISOString().slice(0, 19) + 'Z';
    this.held = { id: this.nextId++, callback_url: callback, created_at: now, updated_at: now };
    return json(201, { id: this.held.id });
  }

  private async validate(callback: string, verifyToken: string): Promise<boolean> {
    const challenge = randomBytes(16).toString('hex');
    const url = new URL(callback);
    url.searchParams.set('hub.verify_token', verifyToken);
    url.searchParams.set('hub.challenge', challenge);
    url.searchParams.set('hub.mode', 'subscribe');
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status !== 200) return false;
      const answer = (await res.json()) as Record<string, unknown>;
      return answer?.['hub.challenge'] === challenge;
    } catch {
      return false;
    }
  }

  /** POSTs one event to `url`; the status our endpoint answered (0 when it did not answer within two seconds). */
  async deliver(url: string, event: StravaEvent): Promise<number> {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: wireJson(event), signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0;
    }
  }
}
