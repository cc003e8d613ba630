/**
 * Withings data update notifications: per-user subscriptions (Notify - Subscribe / Revoke with the
 * user's access token, one per `appli` category), the callback check Withings makes on the
 * callback URL (answered 200 to HEAD and GET), and parsing of the notification POST, a
 * form-encoded body with `userid`, `appli` and `startdate`/`enddate` (or `date`). Notifications
 * carry no signature: parsing refuses malformed bodies (bad_request) and nothing more; README says
 * how the service must authenticate them.
 */
import { HandshakeAnswer, InboundRequest, ProviderError, ProviderHttp, ProviderNotification, ProviderSettings } from '../provider.port';
import { callWithings, PATHS } from './withings-http';
import { DAY_S, ymdToUtcMidnight } from './withings-time';

/** appli → the resources (ResourceSpec names) to fetch when it fires (notification categories table). */
export const APPLI_RESOURCES: Record<number, string[]> = {
  1: ['getmeas'], // weight-related measures (user.metrics)
  4: ['getmeas'], // blood pressure, heart pulse, SpO2, temperature measures (user.metrics)
  16: ['getactivity', 'getworkouts', 'getintradayactivity'], // activity (user.activity)
  44: ['getsummary'], // sleep (user.activity)
};
export const SUBSCRIBED_APPLIS = Object.keys(APPLI_RESOURCES).map(Number);

export async function subscribe(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<void> {
  for (const appli of SUBSCRIBED_APPLIS) {
    await callWithings(http, settings, accessToken, PATHS.notify, { action: 'subscribe', callbackurl: settings.webhookUrl, appli: String(appli), comment: 'Wellstream' });
  }
}

export async function unsubscribe(http: ProviderHttp, settings: ProviderSettings, accessToken: string): Promise<void> {
  for (const appli of SUBSCRIBED_APPLIS) {
    try {
      await callWithings(http, settings, accessToken, PATHS.notify, { action: 'revoke', callbackurl: settings.webhookUrl, appli: String(appli) });
    } catch (err) {
      // Revoking a subscription Withings no longer holds (it drops one after repeated delivery
      // failures) answers an "Invalid params" status: the goal, no subscription, is reached.
      if (err instanceof ProviderError && err.kind === 'bad_response' && err.details.providerCode !== undefined) continue;
      throw err;
    }
  }
}

/** Withings checks the callback URL when subscribing; it must answer 200. */
export function handshake(_settings: ProviderSettings, req: InboundRequest): HandshakeAnswer | undefined {
  if (req.method === 'HEAD' || req.method === 'GET') return { status: 200 };
  return undefined;
}

const MAX_BODY = 16 * 1024;

/** Fields of a multipart/form-data body (the docs say "form-data"; we also take urlencoded). */
function multipartFields(raw: string, boundary: string): URLSearchParams {
  const out = new URLSearchParams();
  for (const part of raw.split(`--${boundary}`)) {
    const m = /^\r?\ncontent-disposition:\s*form-data;\s*name="([^"]+)"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([\s\S]*?)\r?\n?$/i.exec(part);
    if (m) out.append(m[1], m[2]);
  }
  return out;
}

function fieldsOf(req: InboundRequest): URLSearchParams {
  if (req.rawBody.length === 0 || req.rawBody.length > MAX_BODY) throw new ProviderError('bad_request', 'withings notification: empty or oversized body');
  const raw = req.rawBody.toString('utf8');
  const contentType = req.headers['content-type'] ?? '';
  const boundary = /multipart\/form-data;.*boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  return boundary ? multipartFields(raw, boundary) : new URLSearchParams(raw);
}

const DIGITS = /^\d{1,15}$/;

function optionalEpoch(fields: URLSearchParams, name: string): number | undefined {
  const v = fields.get(name);
  if (v === null || v === '') return undefined;
  if (!DIGITS.test(v)) throw new ProviderError('bad_request', `withings notification: ${name} is not a unix timestamp`);
  return Number(v);
}

/** The changed range: startdate..enddate (inclusive) or, for a `date`, that local day padded to cover any zone. */
function windowOf(fields: URLSearchParams): { start: Date; end: Date } | undefined {
  const start = optionalEpoch(fields, 'startdate');
  const end = optionalEpoch(fields, 'enddate');
  if (start !== undefined && end !== undefined) {
    if (end < start) throw new ProviderError('bad_request', 'withings notification: enddate before startdate');
    return { start: new Date(start * 1000), end: new Date((end + 1) * 1000) };
  }
  const date = fields.get('date');
  if (date) {
    const midnight = ymdToUtcMidnight(date);
    if (midnight === undefined) throw new ProviderError('bad_request', 'withings notification: date is not YYYY-MM-DD');
    return { start: new Date((midnight - DAY_S) * 1000), end: new Date((midnight + 2 * DAY_S) * 1000) };
  }
  return undefined;
}

export function parseNotification(_settings: ProviderSettings, req: InboundRequest): ProviderNotification[] {
  if (req.method !== 'POST') throw new ProviderError('bad_request', 'withings notification: not a POST');
  const fields = fieldsOf(req);
  const userid = fields.get('userid');
  const appli = fields.get('appli');
  if (!userid || !DIGITS.test(userid)) throw new ProviderError('bad_request', 'withings notification: userid missing or not numeric');
  if (!appli || !/^\d{1,4}$/.test(appli)) throw new ProviderError('bad_request', 'withings notification: appli missing or not numeric');
  const window = windowOf(fields);
  // appli 46 (user action: delete/unlink/update) and categories we never subscribe to: nothing to fetch.
  const resources = APPLI_RESOURCES[Number(appli)] ?? [];
  return resources.map((resource) => ({ providerUserId: userid, resource, ...(window ? { window } : {}) }));
}
