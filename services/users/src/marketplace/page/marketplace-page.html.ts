/**
 * The marketplace page a user opens from their link: every source of the catalog as a card
 * (initials + colour tile, what it provides, connected or not, one button), the time-zone picker,
 * and an aria-live status line. It works without scripts (plain forms, a consent page for
 * providers); the inline script upgrades it to in-place updates and a consent dialog.
 */
import { sourceDefinition } from '@wellstream/catalog';
import type { MarketplaceView } from '../marketplace.view';
import { esc, HtmlPage, textColorFor } from './html-document';
import { MARKETPLACE_SCRIPT } from './marketplace-page.script';

type SourceItem = MarketplaceView['sources'][number];

const KIND_LABEL: Record<string, string> = { cloud: 'Online account', mobile: 'Phone app', demo: 'Sample data' };

function formatDate(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
}

function sourceCard(token: string, s: SourceItem): string {
  const base = `${encodeURIComponent(token)}/sources/${encodeURIComponent(s.type)}`;
  const name = esc(s.name);
  let form: string;
  if (s.connected) {
    form = `<form method="post" action="${base}/disconnect" data-action="disconnect"><button type="submit" class="secondary" aria-label="Disconnect ${name}">Disconnect</button></form>`;
  } else if (s.consent_required) {
    // Without scripts the button opens the provider's consent page; with scripts, a dialog.
    form = `<form method="get" action="${base}/consent" data-action="consent"><button type="submit" aria-label="Connect ${name}">Connect</button></form>`;
  } else {
    form = `<form method="post" action="${base}/connect" data-action="connect"><button type="submit" aria-label="Connect ${name}">Connect</button></form>`;
  }
  const state = s.connected && s.connected_at ? `Connected since ${esc(formatDate(s.connected_at))}` : 'Not connected';
  return `<li class="card" data-type="${esc(s.type)}" data-name="${name}" data-connected="${s.connected}">
  <span class="logo logo-${esc(s.type)}" aria-hidden="true">${esc(s.initials)}</span>
  <div class="info">
    <h3 id="src-${esc(s.type)}">${name}</h3>
    <p class="kind">${esc(KIND_LABEL[s.kind] ?? s.kind)} · ${esc(s.resources.join(', '))}</p>
    <p class="state">${state}</p>
    ${form}
  </div>
</li>`;
}

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

export function sourceListHtml(token: string, view: MarketplaceView): string {
  return view.sources.map((s) => sourceCard(token, s)).join('\n');
}

/** The cards and the connected count alone, for the script to swap in after an action. */
export function sourcesFragment(token: string, view: MarketplaceView): string {
  const count = view.sources.filter((s) => s.connected).length;
  return `<span id="connected-count">(${count} connected)</span><ul id="sources">${sourceListHtml(token, view)}</ul>`;
}

/** The status line after a plain form post; only known notices render (the query is user input). */
function noticeText(view: MarketplaceView, notice: string | undefined): string {
  if (!notice) return '';
  if (notice === 'timezone') return view.user.location.timezone ? `Time zone saved: ${view.user.location.timezone.replace(/_/g, ' ')}.` : '';
  const [action, type] = notice.split('.', 2);
  const source = view.sources.find((s) => s.type === type);
  if (!source || (action !== 'connected' && action !== 'disconnected')) return '';
  return `${source.name} ${action}.`;
}

export function marketplacePage(token: string, view: MarketplaceView, timeZones: string[], notice?: string): HtmlPage {
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
  <p id="status" class="status${noticeText(view, notice) ? ' ok' : ''}" role="status" aria-live="polite" aria-atomic="true">${esc(noticeText(view, notice))}</p>
  <section aria-labelledby="sources-title">
    <h2 id="sources-title">Sources <span class="muted" id="connected-count">(${connectedCount} connected)</span></h2>
    <ul class="grid" id="sources">
${sourceListHtml(token, view)}
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
</main>
<dialog id="consent" aria-labelledby="consent-title" aria-describedby="consent-desc">
  <form method="dialog">
    <h2 id="consent-title">Allow Wellstream to read your <span id="consent-name"></span> data?</h2>
    <p id="consent-desc" class="muted">This stands in for the provider's sign-in page. Wellstream will read your data from <span id="consent-name2"></span> and share it with the service you use. You can disconnect at any time.</p>
    <div class="actions">
      <button type="submit" value="cancel" class="secondary">Cancel</button>
      <button type="submit" value="allow" id="consent-allow">Allow</button>
    </div>
  </form>
</dialog>`,
  };
}
