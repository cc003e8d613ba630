/**
 * OAuth `state`: signed, single-use, bound to one user and one provider, expiring in 10 minutes.
 * The string is `<nonce>.<expiry unix s>.<mac>`: the MAC (under the token vault's key) lets a
 * forged or altered state be refused before any read; the stored document (keyed by the nonce,
 * deleted when used) makes it single-use and says whose it is. The PKCE verifier and the way back
 * to the marketplace are kept in that document, sealed.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TokenVault } from '../vault/token-vault';

export const STATE_TTL_MS = 10 * 60 * 1000;

export interface OAuthStateDoc {
  _id: string;
  user_id: string;
  source_type: string;
  expires_at: string;
  /** Sealed: the PKCE code verifier, when the provider uses PKCE. */
  code_verifier: string | null;
  /** Sealed: the marketplace URL to send the browser back to. */
  return_url: string;
}

const payload = (nonce: string, exp: number, type: string) => `${nonce}.${exp}.${type}`;

export function newState(vault: TokenVault, type: string, now: Date): { nonce: string; state: string; expiresAt: Date } {
  const nonce = randomBytes(24).toString('base64url');
  const exp = Math.floor((now.getTime() + STATE_TTL_MS) / 1000);
  return { nonce, state: `${nonce}.${exp}.${vault.mac('oauth-state', payload(nonce, exp, type))}`, expiresAt: new Date(exp * 1000) };
}

/** The nonce of a state whose signature holds and which has not expired; null otherwise. */
export function verifiedNonce(vault: TokenVault, type: string, state: string, now: Date): string | null {
  const parts = state.split('.');
  if (parts.length !== 3) return null;
  const [nonce, expText, mac] = parts;
  const exp = Number(expText);
  if (!/^[A-Za-z0-9_-]{32}$/.test(nonce) || !Number.isInteger(exp) || exp * 1000 < now.getTime()) return null;
  const given = Buffer.from(mac);
  return vault.macs('oauth-state', payload(nonce, exp, type)).some((m) => {
    const want = Buffer.from(m);
    return want.length === given.length && timingSafeEqual(want, given);
  })
    ? nonce
    : null;
}

/** PKCE (RFC 7636): a random verifier and its S256 challenge. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
