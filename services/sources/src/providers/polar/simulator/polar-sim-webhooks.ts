/**
 * The Polar simulator's webhook side (AccessLink v3 "Webhooks" and "Accesslink webhooks"): one
 * webhook per client (409 "Webhook already exists" for a second), created only when its URL answers
 * the PING with 200 (400 otherwise), `signature_secret_key` returned only in the create answer,
 * `GET` listing `{data: [{id, events, url, active}]}`, `PATCH` (re-PINGs a new URL), activate /
 * deactivate, `DELETE` (404 when unknown), and deliveries signed with `Polar-Webhook-Signature` =
 * hex HMAC-SHA256 of the body with that key, the event in `Polar-Webhook-Event`.
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { error, json, Reply } from './polar-sim-auth';
import { postToWebhook } from '../../../../test/simulators/kit/sim-base';

export const EVENT_TYPES = ['EXERCISE', 'SLEEP', 'CONTINUOUS_HEART_RATE', 'SLEEP_WISE_CIRCADIAN_BEDTIME', 'SLEEP_WISE_ALERTNESS', 'ACTIVITY_SUMMARY'];

export interface Webhook {
  id: string;
  events: string[];
  url: string;
  active: boolean;
  secret: string;
}

export const sign = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

export class PolarWebhooks {
  held?: Webhook;

  /**
   * Another deployment sharing the client deleted the webhook and created it again at the same URL
   * (or ours lost its database and cannot read the secret): a new id and a new secret.
   */
  recreate(): void {
    if (this.held) this.held = { ...this.held, id: randomBytes(3).toString('hex'), secret: randomUUID() };
  }

  /** Routes under /v3/webhooks; undefined for any other path. */
  async route(method: string, path: string, body: string): Promise<Reply | undefined> {
    if (path === '/v3/webhooks' && method === 'GET') {
      const h = this.held;
      return json(200, { data: h ? [{ id: h.id, events: h.events, url: h.url, active: h.active }] : [] });
    }
    if (path === '/v3/webhooks' && method === 'POST') return this.create(body);
    if (path === '/v3/webhooks/activate' && method === 'POST') {
      if (!this.held) return { status: 204 };
      if (!(await this.ping(this.held.url, this.held.secret))) return error(400, 'WEBHOOK_PING_FAILED', 'Ping to webhook url failed');
      this.held.active = true;
      return { status: 200 };
    }
    if (path === '/v3/webhooks/deactivate' && method === 'POST') {
      if (!this.held) return { status: 204 };
      this.held.active = false;
      return { status: 200 };
    }
    const one = /^\/v3\/webhooks\/([^/]+)$/.exec(path);
    if (!one) return undefined;
    const id = decodeURIComponent(one[1]);
    if (!this.held || this.held.id !== id) return error(404, 'NOT_FOUND', 'Webhook not found');
    if (method === 'DELETE') {
      this.held = undefined;
      return { status: 204 };
    }
    if (method === 'PATCH') {
      const req = readRequest(body, false);
      if ('error' in req) return error(400, 'BAD_REQUEST', req.error);
      if (req.url && req.url !== this.held.url && !(await this.ping(req.url, this.held.secret))) return error(400, 'WEBHOOK_PING_FAILED', 'Ping to webhook url failed');
      if (req.url) this.held.url = req.url;
      if (req.events) this.held.events = req.events;
      const h = this.held;
      return json(200, { data: [{ id: h.id, events: h.events, url: h.url, active: h.active }] });
    }
    return error(405, 'METHOD_NOT_ALLOWED', 'Method not allowed');
  }

  private async create(body: string): Promise<Reply> {
    const req = readRequest(body, true);
    if ('error' in req) return error(400, 'BAD_REQUEST', req.error);
    if (this.held) return error(409, 'CONFLICT', 'Webhook already exists');
    const secret = randomUUID();
    // "When creating webhook the AccessLink sends a ping message … answered with 200 OK or otherwise the webhook is not created."
    if (!(await this.ping(req.url!, secret))) return error(400, 'WEBHOOK_PING_FAILED', 'Ping to webhook url failed');
    this.held = { id: randomBytes(3).toString('hex'), events: req.events!, url: req.url!, active: true, secret };
    return json(201, { data: { id: this.held.id, events: this.held.events, url: this.held.url, signature_secret_key: secret } });
  }

  private async ping(url: string, secret: string): Promise<boolean> {
    const body = JSON.stringify({ timestamp: new Date().toISOString(), event: 'PING' });
    try {
      return (await this.post(url, 'PING', body, sign(secret, body))) === 200;
    } catch {
      return false;
    }
  }

  post(url: string, event: string, body: string, signature: string): Promise<number> {
    return postToWebhook(url, body, { 'content-type': 'application/json', 'polar-webhook-event': event, 'polar-webhook-signature': signature }, 10_000);
  }

  /** A delivery of `payload` as the held webhook would send it (or signed with `forgedSecret`). */
  async deliver(payload: Record<string, unknown>, forgedSecret?: string, url?: string): Promise<number> {
    const h = this.held;
    if (!h) throw new Error('Polar sends notifications only through a created webhook: none exists');
    const event = String(payload.event);
    if (!h.events.includes(event)) throw new Error(`the webhook is not subscribed to ${event}`);
    if (!h.active) throw new Error('the webhook is deactivated');
    const body = JSON.stringify(payload);
    return this.post(url ?? h.url, event, body, sign(forgedSecret ?? h.secret, body));
  }
}

function readRequest(body: string, required: boolean): { events?: string[]; url?: string } | { error: string } {
  let req: Record<string, unknown>;
  try {
    req = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { error: 'Body is not JSON' };
  }
  const { events, url } = req;
  if (events !== undefined && (!Array.isArray(events) || events.length === 0 || events.some((e) => !EVENT_TYPES.includes(String(e))))) return { error: 'events must be a list of webhook types' };
  if (url !== undefined && (typeof url !== 'string' || !/^https?:\/\//.test(url))) return { error: 'url must be a URL' };
  if (required && (events === undefined || url === undefined)) return { error: 'events and url are required' };
  return { ...(events ? { events: events as string[] } : {}), ...(url ? { url: url as string } : {}) };
}
