/**
 * The gateway's signed statement about the caller of one forwarded request. Services sit on a
 * network others can reach, so they believe no identity header unless this assertion binds it to
 * the request: HMAC-SHA256, under a key shared by the gateway and the services, over the caller
 * (customer, organization, operator flag), the method, the request target, a timestamp and the
 * request id. An assertion older than 60 s, or made for another request, verifies as nothing.
 *
 * Header: `X-Wellstream-Assertion: v1.<key id>.<unix ms>.<base64url HMAC>`. Two keys can be
 * configured at once (WELLSTREAM_GATEWAY_KEYS="new,old"): the gateway signs with the first,
 * services accept either, so a key rotates without a window where calls fail.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

export const ASSERTION_HEADER = 'x-wellstream-assertion';
export const OPERATOR_HEADER = 'x-wellstream-admin';
export const ASSERTION_MAX_AGE_MS = 60_000;

/** What the gateway vouches for. Empty strings stand for "none" (a public route has no caller). */
export interface AssertedRequest {
  method: string;
  /** The request target as forwarded: path and query, exactly as on the wire. */
  target: string;
  requestId: string;
  customerId: string;
  organizationId: string;
  operator: boolean;
}

export type AssertionFailure = 'missing' | 'malformed' | 'unknown_key' | 'expired' | 'mismatch';

/** A short, stable id of a key (not secret: a hash prefix), so a verifier picks the key and logs which. */
export function keyId(key: string): string {
  let id = keyIds.get(key);
  if (id === undefined) {
    id = createHash('sha256').update(key).digest('hex').slice(0, 8);
    // A process holds one or two keys; the bound only guards against a caller passing many.
    if (keyIds.size > 16) keyIds.clear();
    keyIds.set(key, id);
  }
  return id;
}
/** Key → id, so signing and verifying hash the key once, not on every request. */
const keyIds = new Map<string, string>();

const canonical = (r: AssertedRequest, at: number) =>
  ['v1', String(at), r.method.toUpperCase(), r.target, r.requestId, r.customerId, r.organizationId, r.operator ? '1' : '0'].join('\n');

const mac = (key: string, r: AssertedRequest, at: number) => createHmac('sha256', key).update(canonical(r, at)).digest();

export function signAssertion(key: string, r: AssertedRequest, now = Date.now()): string {
  return `v1.${keyId(key)}.${now}.${mac(key, r, now).toString('base64url')}`;
}

/** Checks an assertion against the request as received; the failure reason, or undefined when it holds. */
export function verifyAssertion(
  keys: readonly string[],
  header: string | undefined,
  r: AssertedRequest,
  now = Date.now(),
): AssertionFailure | undefined {
  if (!header) return 'missing';
  const m = /^v1\.([0-9a-f]{8})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(header);
  if (!m) return 'malformed';
  const key = keys.find((k) => keyId(k) === m[1]);
  if (!key) return 'unknown_key';
  const at = Number(m[2]);
  // Both directions: a clock ahead by more than the window is as suspicious as an old assertion.
  if (Math.abs(now - at) > ASSERTION_MAX_AGE_MS) return 'expired';
  const given = Buffer.from(m[3], 'base64url');
  const expected = mac(key, r, at);
  return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : 'mismatch';
}
