/**
 * The headers every HTML page of the platform answers with (the marketplace, the API docs page): a
 * strict Content-Security-Policy that allows nothing but what the page names (its own inline
 * style and script, by nonce or hash), no referrer (marketplace URLs carry a token), no MIME
 * sniffing and no caching. One place, so a new page cannot start with a weaker set.
 */
import { createHash } from 'node:crypto';

export interface HtmlPolicy {
  /** Sources of scripts, e.g. `'nonce-…'`; none when absent. */
  scriptSrc?: string[];
  /** Sources of styles, e.g. `'nonce-…'` or a hash from cspHash(); none when absent. */
  styleSrc?: string[];
  /** Where the page's scripts may fetch; none when absent. */
  connectSrc?: string[];
  /** Where the page's forms may post; none when absent. */
  formAction?: string[];
}

const list = (sources: string[] | undefined) => (sources?.length ? sources.join(' ') : "'none'");

/** A CSP source for an inline element's exact text (`'sha256-…'`), for content fixed at build time. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export function htmlSecurityHeaders(policy: HtmlPolicy): Record<string, string> {
  return {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': [
      "default-src 'none'",
      `script-src ${list(policy.scriptSrc)}`,
      `style-src ${list(policy.styleSrc)}`,
      `connect-src ${list(policy.connectSrc)}`,
      `form-action ${list(policy.formAction)}`,
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  };
}
