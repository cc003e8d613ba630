/**
 * Secrets never reach a log: tokens in URLs, Authorization headers, and fields named like secrets.
 */
const SECRET_KEYS = /^(token|authorization|secret|password|admin_token|x-wellstream-signature)$/i;
const TOKEN_IN_URL = /([?&](?:token|secret)=)[^&#\s"]*/gi;
const BEARER = /(bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
// Credentials that travel as path segments: a token being revoked, a marketplace token.
const TOKEN_IN_PATH = /(\/(?:tokens|marketplace)\/)[^/?#\s"]+/gi;

export function redactString(s: string): string {
  return s.replace(TOKEN_IN_URL, '$1[REDACTED]').replace(BEARER, '$1[REDACTED]').replace(TOKEN_IN_PATH, '$1[REDACTED]');
}

export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (value instanceof Error) return { name: value.name, message: redactString(value.message) };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = SECRET_KEYS.test(k) ? '[REDACTED]' : redactValue(v, depth + 1);
  }
  return out;
}
