/**
 * Garmin's notifications (Health API "Ping Service", "Push Service"; Start Guide "User
 * Deregistration", "User Permissions"): one JSON object whose keys are summary types, each a list
 * of `{userId, callbackURL}` pings; `deregistrations` (`{userId}`) when the user withdrew access or
 * we deleted the registration; `userPermissionsChange` (`{userId, permissions, …}`). Garmin signs
 * none of them, so:
 * - a ping is only a pointer: its callbackURL must be Garmin's own pull path (else the whole
 *   delivery is refused, 401, and nothing is fetched) and is fetched with the user's own token;
 * - a deregistration ends a connection only after Garmin refuses the user's token (the service's
 *   access check for `unsignedNotifications`);
 * - a permission change names only the user: the service asks `user/permissions` with the user's
 *   token (its list in the body is not taken);
 * - a push (summaries inline, no callbackURL) is a notice only: its body is never stored, its
 *   userAccessToken never used; per user and summary type it becomes a pull of the last 24 hours of
 *   uploads (Garmin's longest pull range), on our configured API origin with our token.
 */
import { InboundRequest, ProviderError, ProviderNotification, ProviderSettings } from '../provider.port';
import { checkedCallbackUrl, REST_PATH } from './garmin-http';
import { isObject } from '../kit/json-reading';
import { SUMMARIES } from './garmin-summaries';

const MAX_ENTRIES = 10_000;
/** A pull's upload range is at most a day; a push arrives when its data was uploaded, so the last day holds it. */
const PUSH_RANGE_S = 86_400;
/** Our clock and Garmin's may differ a little: the range ends a minute ahead. */
const SKEW_S = 60;
const USER_ID = /^[A-Za-z0-9-]{1,100}$/;

const malformed = (why: string) => new ProviderError('bad_request', `Garmin notification: ${why}`);

function entriesOf(body: Record<string, unknown>, key: string): Record<string, unknown>[] {
  const list = body[key];
  if (!Array.isArray(list)) throw malformed(`${key} is not a list`);
  return list.map((e) => {
    if (!isObject(e)) throw malformed(`${key} holds something that is not an object`);
    if (typeof e.userId !== 'string' || !USER_ID.test(e.userId)) throw malformed(`${key} has an entry without a readable userId`);
    return e;
  });
}

export function parseNotification(settings: ProviderSettings, req: InboundRequest): ProviderNotification[] {
  // Not a signature (the client id is no secret), but a delivery naming another application is not ours.
  const clientId = req.headers['garmin-client-id'];
  if (clientId !== undefined && clientId !== settings.clientId) throw new ProviderError('bad_signature', 'Garmin notification for another client id');
  let body: unknown;
  try {
    body = JSON.parse(req.rawBody.toString('utf8'));
  } catch {
    throw malformed('not JSON');
  }
  if (!isObject(body)) throw malformed('not an object');
  const out: ProviderNotification[] = [];
  let entries = 0;
  for (const key of Object.keys(body)) {
    const list = entriesOf(body, key);
    entries += list.length;
    if (entries > MAX_ENTRIES) throw malformed(`more than ${MAX_ENTRIES} entries`);
    if (key === 'deregistrations') {
      for (const e of list) out.push({ providerUserId: e.userId as string, resource: 'deregistration', deauthorized: true, reason: 'the user withdrew access in Garmin Connect' });
      continue;
    }
    if (key === 'userPermissionsChange') {
      for (const e of list) if (e.permissions !== undefined && !Array.isArray(e.permissions)) throw malformed('userPermissionsChange.permissions is not a list');
      for (const userId of new Set(list.map((e) => e.userId as string))) out.push({ providerUserId: userId, resource: 'permissions', permissionsChanged: true });
      continue;
    }
    const pushedBy = new Set<string>();
    for (const e of list) {
      if (e.callbackURL === undefined) {
        pushedBy.add(e.userId as string);
        continue;
      }
      if (typeof e.callbackURL !== 'string') throw malformed(`${key}.callbackURL is not a string`);
      // Checked for every type, read or not: a foreign URL makes the whole delivery a forgery.
      const url = checkedCallbackUrl(settings, key, e.callbackURL);
      if (SUMMARIES.has(key)) out.push({ providerUserId: e.userId as string, resource: key, objectId: url.toString() });
    }
    if (SUMMARIES.has(key)) for (const userId of pushedBy) out.push({ providerUserId: userId, resource: key, objectId: pushPull(settings, key) });
  }
  return out;
}

/** The pull a push stands for: the summary type's path on our API origin, the last day of uploads (no pull token: none is given). */
function pushPull(settings: ProviderSettings, resource: string): string {
  const end = Math.floor(Date.now() / 1000) + SKEW_S;
  const url = new URL(`${settings.apiUrl.replace(/\/+$/, '')}${REST_PATH}/${resource}`);
  url.searchParams.set('uploadStartTimeInSeconds', String(end - PUSH_RANGE_S));
  url.searchParams.set('uploadEndTimeInSeconds', String(end));
  return url.toString();
}
