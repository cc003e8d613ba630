/**
 * The frame every marketplace page shares: escaping, the document skeleton with inline CSS/JS
 * under a per-response nonce, and the security headers (strict CSP, no referrer: the token is in
 * the URL and must not leak to other sites, no caching: libs/http html-security-headers.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Response } from 'express';
import { MARKETPLACE_CSS } from './marketplace-page.style';

export const esc = (s: string | number | null | undefined): string =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export interface HtmlPage {
  title: string;
  body: string;
  /** Extra CSS (e.g. per-source tile colours). */
  css?: string;
  script?: string;
  /**
   * Origins a form post of the page may end on besides its own: Chrome applies form-action to the
   * redirect that answers a form post, so a Connect answered by a 303 to a provider's sign-in page
   * is blocked unless that page's origin is listed.
   */
  formActionOrigins?: string[];
}

/** `scheme://host[:port]` only: anything else (paths, spaces, quotes, `;`) could bend the policy. */
export function cspOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return /^https?:\/\/[A-Za-z0-9.\-[\]:]+$/.test(url.origin) ? url.origin : null;
  } catch {
    return null;
  }
}

/** The page's Content-Security-Policy: nothing but its own nonce'd CSS and JS, requests and form posts to itself (and listed sign-in origins). */
export function contentSecurityPolicy(nonce: string, formActionOrigins: string[] = []): string {
  const origins = [...new Set(formActionOrigins.map(cspOrigin).filter((o): o is string => o !== null))];
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    ["form-action 'self'", ...origins].join(' '),
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function sendHtml(res: Response, status: number, page: HtmlPage): void {
  const nonce = randomBytes(16).toString('base64');
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': contentSecurityPolicy(nonce, page.formActionOrigins),
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    })
    .send(
      `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(page.title)}</title>
<style nonce="${nonce}">${MARKETPLACE_CSS}${page.css ?? ''}</style>
</head>
<body>
${page.body}
${page.script ? `<script nonce="${nonce}">${page.script}</script>` : ''}
</body>
</html>`,
    );
}

/** Readable text on a tile: dark text on light colours, white on dark ones (WCAG relative luminance). */
export function textColorFor(hex: string): string {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!m) return '#ffffff';
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(m[1].slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  // Contrast against white is (1.05)/(L+0.05); against near-black (#111) about (L+0.05)/0.056.
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.056 ? '#ffffff' : '#111111';
}
