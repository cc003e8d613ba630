/**
 * The delivery signature (documented in the OpenAPI document): `sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`.
 * Signing the timestamp with the body lets receivers reject replays older than their tolerance.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signPush(secret: string, timestampSeconds: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestampSeconds}.${rawBody}`).digest('hex')}`;
}

/** What a receiver does (also used by our tests): constant-time compare within a time tolerance. */
export function verifyPush(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: string,
  options: { toleranceSeconds?: number; nowSeconds?: number } = {},
): boolean {
  const ts = Number(headers.timestamp);
  if (!headers.signature || !Number.isInteger(ts)) return false;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - ts) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signPush(secret, ts, rawBody));
  const given = Buffer.from(headers.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
