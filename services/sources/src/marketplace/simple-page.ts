/**
 * The few pages this service draws itself (a refused sign-in link): plain HTML under a strict
 * Content-Security-Policy with no script at all, never cached, no referrer (the marketplace
 * token may be in the URL).
 */
import type { Response } from 'express';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export function sendMessagePage(res: Response, status: number, title: string, message: string): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    })
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title>` +
        `<style>body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;color:#1f2937}h1{font-size:1.4rem}</style></head>` +
        `<body><main><h1>${esc(title)}</h1><p>${esc(message)}</p></main></body></html>`,
    );
}
