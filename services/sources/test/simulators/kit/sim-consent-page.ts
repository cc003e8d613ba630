/**
 * The browser side of a simulated consent step (setBrowserUser): a page with Allow and Deny buttons
 * that POST back to the authorize path, and the 302 that POST answers. The words on the page are the
 * provider's (passed in); the page is the simulator's own, not a copy of the provider's.
 */
import type { SimulatedUser } from '../provider-simulator';
import { escapeHtml, SimReply } from './sim-server';

export interface ConsentPage {
  /** Where the buttons post to: the provider's authorize path. */
  action: string;
  title: string;
  heading: string;
  /** The paragraph under the heading, given the (escaped) signed-in user. */
  describe: (who: string) => string;
}

/** GET: the page for `browserUser`. */
export function consentPage(url: URL, browserUser: SimulatedUser | undefined, page: ConsentPage): SimReply {
  const full = escapeHtml(url.toString());
  const who = browserUser ? escapeHtml(browserUser.providerUserId) : 'nobody (setBrowserUser first)';
  const button = (d: string, label: string) =>
    `<form method="post" action="${page.action}"><input type="hidden" name="authorize_url" value="${full}"><button name="decision" value="${d}">${label}</button></form>`;
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><title>${page.title}</title><h1>${page.heading}</h1><p>${page.describe(who)}</p>${button('allow', 'Allow')}${button('deny', 'Deny')}`,
  };
}

/**
 * POST: the button's decision for the browser user, as the redirect `consent` produces; `noUser`
 * (in the provider's error shape) when no browser user was set.
 */
export function consentDecision(
  form: URLSearchParams,
  browserUser: SimulatedUser | undefined,
  consent: (authorizeUrl: string, user: SimulatedUser, decision: 'allow' | 'deny') => string,
  noUser: () => SimReply,
): SimReply {
  if (!browserUser) return noUser();
  const location = consent(form.get('authorize_url') ?? '', browserUser, form.get('decision') === 'allow' ? 'allow' : 'deny');
  return { status: 302, headers: { location } };
}
