/**
 * The simulator's notify service (Notify - Subscribe / List / Get / Revoke, per user and appli,
 * with the user's access token) and the notifications it sends: a POST to the callback URL with a
 * form-encoded body (userid, appli, startdate, enddate, and date for activity), as the
 * "Payload and Categories" page shows. Subscribing first checks that the callback URL answers
 * (a HEAD request must get a 2xx), else it answers status 293 (an "Invalid params" status).
 */
import { Envelope } from './withings-sim-oauth';

export interface SimSubscription { userid: string; appli: number; callbackurl: string; comment: string }

export const APPLIS = [1, 4, 16, 44, 46, 50, 51, 52, 53, 54, 55, 58];

async function callbackAnswers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(2000) });
    return res.status >= 200 && res.status < 300;
  } catch {
    return false;
  }
}

export class SimNotify {
  readonly subs: SimSubscription[] = [];

  async handle(userid: string, q: URLSearchParams): Promise<Envelope> {
    const action = q.get('action');
    const appli = Number(q.get('appli') ?? '1');
    const callbackurl = q.get('callbackurl') ?? '';
    if (action === 'list') {
      const profiles = this.subs.filter((s) => s.userid === userid && (!q.get('appli') || s.appli === appli)).map(({ appli: ap, callbackurl: cb, comment }) => ({ appli: ap, callbackurl: cb, comment }));
      return { status: 0, body: { profiles } };
    }
    if (!APPLIS.includes(appli)) return { status: 503, body: {}, error: 'Invalid Params: appli' };
    if (!/^https?:\/\//.test(callbackurl)) return { status: 293, body: {}, error: 'Invalid Params: callbackurl' };
    const index = this.subs.findIndex((s) => s.userid === userid && s.appli === appli && s.callbackurl === callbackurl);
    if (action === 'subscribe') {
      if (!(await callbackAnswers(callbackurl))) return { status: 293, body: {}, error: 'Invalid Params: the callback URL did not answer' };
      if (index < 0) this.subs.push({ userid, appli, callbackurl, comment: q.get('comment') ?? '' });
      return { status: 0, body: {} };
    }
    if (action === 'get') {
      return index < 0 ? { status: 294, body: {}, error: 'Invalid Params: no such subscription' } : { status: 0, body: { appli, callbackurl, comment: this.subs[index].comment } };
    }
    if (action === 'revoke') {
      if (index < 0) return { status: 294, body: {}, error: 'Invalid Params: no such subscription' };
      this.subs.splice(index, 1);
      return { status: 0, body: {} };
    }
    return { status: 2554, body: {}, error: 'Not implemented' };
  }

  /** Removes every subscription of a user (OAuth revoke: "the data update notifications for this user will be automatically unsubscribed"). */
  dropUser(userid: string): void {
    for (let i = this.subs.length - 1; i >= 0; i--) if (this.subs[i].userid === userid) this.subs.splice(i, 1);
  }
}

/** POSTs one notification, form-encoded, and resolves to the receiver's HTTP status. */
export async function sendNotification(url: string, fields: Record<string, string>): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), signal: AbortSignal.timeout(5000) });
  await res.arrayBuffer();
  return res.status;
}
