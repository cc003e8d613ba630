/**
 * The marketplace page a user opens from their link: every source listed for them as a card
 * (source-card.html.ts), the time-zone picker, and an aria-live status line that also says what a
 * redirect back here brought (`?notice=`: connected, reconnected, disconnected, denied, no_data, error).
 * It works without scripts (plain forms); the inline script runs the demo and phone-app buttons in
 * place. Provider sources always leave the page for their sign-in.
 */
import { sourceDefinition } from '@wellstream/catalog';
import type { MarketplaceView } from '@wellstream/contracts';
import { esc, HtmlPage, textColorFor } from './html-document';
import { MARKETPLACE_SCRIPT } from './marketplace-page.script';
import { sourceCard } from './source-card.html';

/** Tile colours as classes: the CSP forbids inline style attributes. */
function tileCss(view: MarketplaceView): string {
  return view.sources
    .map((s) => {
      const color = sourceDefinition(s.type)?.color ?? '#6b7280';
      const safe = /^#[0-9a-f]{3,8}$/i.test(color) ? color : '#6b7280';
      return `.logo-${s.type}{background:${safe};color:${textColorFor(safe)}}`;
    })
    .join('');
}

export function sourceListHtml(token: string, view: MarketplaceView, now: Date): string {
  return view.sources.map((s) => sourceCard(token, s, now)).join('\n');
}

/** The cards and the connected count alone, for the script to swap in after an action. */
export function sourcesFragment(token: string, view: MarketplaceView, now: Date): string {
  const count = view.sources.filter((s) => s.connected).length;
  return `<span id="connected-count">(${count} connected)</span><ul id="sources">${sourceListHtml(token, view, now)}</ul>`;
}

export interface Notice {
  text: string;
  tone: 'ok' | 'warn' | 'error';
}

const NOTICES: Record<string, { text: (name: string) => string; tone: Notice['tone'] }> = {
  connected: { text: (n) => `${n} connected.`, tone: 'ok' },
  reconnected: { text: (n) => `${n} reconnected.`, tone: 'ok' },
  disconnected: { text: (n) => `${n} disconnected.`, tone: 'ok' },
  denied: { text: (n) => `You did not allow access to ${n}.`, tone: 'warn' },
  no_data: { text: (n) => `${n} was not connected: you did not allow it to share any of your data. Connect again and keep its data permissions ticked.`, tone: 'warn' },
  error: { text: (n) => `${n} could not be connected. Please try again.`, tone: 'error' },
};

/**
 * The status line after a redirect back to the page (a plain form post here, or the sources
 * service after a provider's sign-in or a disconnect). Only known notices of catalog sources
 * render: the query is anyone's input.
 */
export function noticeOf(view: MarketplaceView, notice: string | undefined): Notice | null {
  if (!notice) return null;
  if (notice === 'timezone') return view.user.location.timezone ? { text: `Time zone saved: ${view.user.location.timezone.replace(/_/g, ' ')}.`, tone: 'ok' } : null;
  const dot = notice.indexOf('.');
  const kind = Object.prototype.hasOwnProperty.call(NOTICES, notice.slice(0, dot)) ? NOTICES[notice.slice(0, dot)] : undefined;
  const type = notice.slice(dot + 1);
  const name = view.sources.find((s) => s.type === type)?.name ?? sourceDefinition(type)?.name;
  return dot > 0 && kind && name ? { text: kind.text(name), tone: kind.tone } : null;
}

export function marketplacePage(token: string, view: MarketplaceView, timeZones: string[], now: Date, notice?: string): HtmlPage {
  const current = view.user.location.timezone;
  const zones = current && !timeZones.includes(current) ? [current, ...timeZones] : timeZones;
  const options = [`<option value=""${current ? '' : ' selected'} disabled>Choose your time zone…</option>`]
    .concat(zones.map((z) => `<option value="${esc(z)}"${z === current ? ' selected' : ''}>${esc(z.replace(/_/g, ' '))}</option>`))
    .join('');
  const tzNote =
    view.user.location.timezone_origin === 'user_defined'
      ? 'You chose this time zone.'
      : current
        ? 'Set by the service you use. Change it if it is wrong.'
        : 'No time zone is set yet.';
  const connectedCount = view.sources.filter((s) => s.connected).length;
  const status = noticeOf(view, notice);
  return {
    title: 'Connect your data sources · Wellstream',
    css: tileCss(view),
    script: MARKETPLACE_SCRIPT,
    body: `<a class="skip" href="#sources">Skip to the sources</a>
<header>
  <h1>Connect your data sources</h1>
  <p class="muted">Choose the apps and devices that may share your wellness data. You can disconnect a source at any time.</p>
</header>
<main>
  <p id="status" class="status${status ? ` ${status.tone}` : ''}" role="status" aria-live="polite" aria-atomic="true">${esc(status?.text)}</p>
  <section aria-labelledby="sources-title">
    <h2 id="sources-title">Sources <span class="muted" id="connected-count">(${connectedCount} connected)</span></h2>
    <ul class="grid" id="sources">
${sourceListHtml(token, view, now)}
    </ul>
  </section>
  <section aria-labelledby="tz-title">
    <h2 id="tz-title">Your time zone</h2>
    <div class="tz">
      <form id="tz-form" method="post" action="${encodeURIComponent(token)}/timezone">
        <label for="timezone">Time zone used when a source does not report one</label>
        <select id="timezone" name="timezone" required aria-describedby="tz-note">${options}</select>
        <button type="submit">Save time zone</button>
      </form>
      <p id="tz-note" class="muted">${esc(tzNote)}</p>
    </div>
  </section>
</main>`,
  };
}
