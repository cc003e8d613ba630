/**
 * The signed-link format the platform's short-lived links share (export downloads, FHIR export files): the link names what it opens and
 * when it expires, and an HMAC-SHA256 over both proves the platform handed it out, so no token
 * travels in it. `purpose` separates each use of the key from every other (the gateway signs its
 * assertions with the same key), so a signature made for one kind of link opens no other.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignedLinkCheck = 'valid' | 'invalid' | 'expired';

const sign = (key: string, purpose: string, subject: string, expires: number) => createHmac('sha256', key).update(`${purpose}\n${subject}\n${expires}`).digest('hex');

/** The query string (`expires=…&signature=…`) that opens `subject` until `expiresAtMs`. */
export function signedLinkQuery(key: string, purpose: string, subject: string, expiresAtMs: number): string {
  const expires = Math.floor(expiresAtMs / 1000);
  return `expires=${expires}&signature=${sign(key, purpose, subject, expires)}`;
}

/** `valid` when the signature holds; `expired` when it holds but its time has passed. */
export function checkSignedLink(key: string, purpose: string, subject: string, expires: unknown, signature: unknown, nowMs: number): SignedLinkCheck {
  if (typeof expires !== 'string' || typeof signature !== 'string' || !/^\d{1,12}$/.test(expires) || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
  const expected = Buffer.from(sign(key, purpose, subject, Number(expires)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
  return Number(expires) * 1000 <= nowMs ? 'expired' : 'valid';
}
