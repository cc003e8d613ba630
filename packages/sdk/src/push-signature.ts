/**
 * Push signatures, for receivers: `X-Wellstream-Signature: sha256=<hex HMAC-SHA256(secret,
 * "<timestamp>.<raw body>")>` with `X-Wellstream-Timestamp` in Unix seconds. Web Crypto only (Node.js
 * 20+ and browsers); the comparison is crypto.subtle.verify's, which is constant-time, so a forger
 * learns nothing from how long a refusal takes. The CLI signs the events it forwards the same way.
 */
import { SignatureVerificationError } from './errors';

export const SIGNATURE_HEADER = 'x-wellstream-signature';
export const TIMESTAMP_HEADER = 'x-wellstream-timestamp';

export interface VerifyOptions {
  /** Oldest (and furthest in the future) a timestamp may be, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** Now, in Unix seconds (tests). */
  now?: number;
}

/** Headers as Node gives them (`req.headers`), as a fetch Headers, or a plain record. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

const encoder = new TextEncoder();

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function bytesOf(body: string | Uint8Array): Uint8Array {
  return typeof body === 'string' ? encoder.encode(body) : body;
}

function signedPayload(timestamp: string, body: string | Uint8Array): Uint8Array {
  const prefix = encoder.encode(`${timestamp}.`);
  const raw = bytesOf(body);
  const out = new Uint8Array(prefix.length + raw.length);
  out.set(prefix, 0);
  out.set(raw, prefix.length);
  return out;
}

const hmacKey = (secret: string, usage: 'sign' | 'verify') =>
  globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);

/** The headers a signed delivery carries, for a body sent at `timestamp` (Unix seconds). */
export async function signPushPayload(body: string | Uint8Array, secret: string, timestamp = Math.floor(Date.now() / 1000)): Promise<Record<string, string>> {
  const mac = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', await hmacKey(secret, 'sign'), signedPayload(String(timestamp), body)));
  const hex = Array.from(mac, (b) => b.toString(16).padStart(2, '0')).join('');
  return { 'X-Wellstream-Timestamp': String(timestamp), 'X-Wellstream-Signature': `sha256=${hex}` };
}

/**
 * Resolves when `rawBody` (the exact bytes received, before any JSON parsing) was signed with
 * `secret`, or with one of `secrets` (a rotation: the new one and the old one until every batch
 * signed with it is through), within the tolerance; rejects with a SignatureVerificationError otherwise.
 */
export async function verifyPushSignature(rawBody: string | Uint8Array, headers: HeaderSource, secret: string | readonly string[], options: VerifyOptions = {}): Promise<void> {
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new SignatureVerificationError('mismatch', 'no secret to verify with');
  const signature = header(headers, SIGNATURE_HEADER);
  const timestamp = header(headers, TIMESTAMP_HEADER);
  if (!signature || !timestamp) throw new SignatureVerificationError('missing_header', `missing ${!signature ? 'X-Wellstream-Signature' : 'X-Wellstream-Timestamp'} header`);
  const hex = /^sha256=([0-9a-f]{64})$/i.exec(signature.trim())?.[1];
  if (!hex || !/^\d{1,12}$/.test(timestamp.trim())) throw new SignatureVerificationError('malformed_header', 'the signature or timestamp header is not in the documented format');
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > tolerance) throw new SignatureVerificationError('stale_timestamp', `timestamp ${timestamp} is more than ${tolerance} s away from now (${now})`);
  const mac = new Uint8Array(hex.match(/../g)!.map((h) => parseInt(h, 16)));
  const payload = signedPayload(timestamp.trim(), rawBody);
  for (const candidate of secrets) {
    if (await globalThis.crypto.subtle.verify('HMAC', await hmacKey(candidate, 'verify'), mac, payload)) return;
  }
  throw new SignatureVerificationError('mismatch', `the signature does not match the body and ${secrets.length > 1 ? 'any of the secrets' : 'secret'}`);
}

export { header as pushHeader };
