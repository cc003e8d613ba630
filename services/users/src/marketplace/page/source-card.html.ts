/**
 * One source on the marketplace page: initials + colour tile, what it provides, its state in words
 * and its buttons. The demo source connects here (the page's script runs those forms in place);
 * phone apps connect from the customer's app, so their card explains that and has only Disconnect. Cloud sources are plain form posts that leave the page: the sources service answers
 * Connect and Reconnect with a redirect to the provider's sign-in page (a script's fetch could not
 * follow it) and Disconnect with a redirect back here.
 */
import type { MarketplaceView } from '@wellstream/contracts';
import { esc } from './html-document';

export type SourceItem = MarketplaceView['sources'][number];

const KIND_LABEL: Record<string, string> = { cloud: 'Online account', mobile: 'Phone app', demo: 'Sample data' };

/** What a source delivers, in the user's words (the catalog's resource types). */
const RESOURCE_WORDS: Record<string, string> = {
  measurement: 'body measurements',
  nutrition: 'meals',
  sleep: 'sleep',
  summary: 'daily activity',
  workout: 'workouts',
  intraday: 'minute-by-minute data',
  cgm: 'glucose readings',
};

/** "sleep, daily activity and workouts". */
export function deliversInWords(resources: string[]): string {
  const words = resources.map((r) => RESOURCE_WORDS[r] ?? r);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : (words[0] ?? '');
}

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago" (a time a little ahead of `now` is "just now"). */
export function timeAgo(iso: string, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return plural(hours, 'hour');
  return plural(Math.floor(hours / 24), 'day');
}

const timeTag = (iso: string, now: Date) => `<time datetime="${esc(iso)}" title="${esc(formatDate(iso))}">${esc(timeAgo(iso, now))}</time>`;

/** 0..1 as a whole percentage, never 100 % before the import is done. */
const percent = (progress: number) => Math.min(99, Math.max(0, Math.floor(progress * 100)));

type Tone = 'ok' | 'warn' | 'error' | 'idle';

/** A cloud source's state in words (HTML), and how it should look. */
function cloudState(s: SourceItem, now: Date): { html: string; tone: Tone; importing: number | null } {
  if (!s.connected) return { html: 'Not connected', tone: 'idle', importing: null };
  if (s.status === 'auth_expired') return { html: 'Access expired — reconnect', tone: 'warn', importing: null };
  if (s.status === 'error') return { html: 'Sync problem', tone: 'error', importing: null };
  // Some data permissions were refused at the provider: connected, with less than it could bring.
  const missing = s.missing_permissions?.length ? ` · permissions not granted: ${s.missing_permissions.map((p) => `<code>${esc(p)}</code>`).join(', ')} (reconnect to grant them)` : '';
  const tone: Tone = missing ? 'warn' : 'ok';
  if (s.backfill?.state === 'running') {
    const pct = percent(s.backfill.progress);
    return { html: `Importing your history… ${pct} %${missing}`, tone, importing: pct };
  }
  const synced = s.last_synced_at ? `last synced ${timeTag(s.last_synced_at, now)}` : 'waiting for the first sync';
  const history = s.backfill?.state === 'done' ? ` · history imported from ${esc(new Date(s.backfill.start).toLocaleDateString('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }))}` : '';
  return { html: `Connected${history} · ${synced}${missing}`, tone, importing: null };
}

const button = (label: string, name: string, stateId: string, secondary = false) =>
  `<button type="submit"${secondary ? ' class="secondary"' : ''} aria-label="${label} ${name}" aria-describedby="${stateId}">${label}</button>`;

function cloudCard(base: string, s: SourceItem, now: Date): { state: string; tone: Tone; extra: string; forms: string } {
  const name = esc(s.name);
  const stateId = `state-${esc(s.type)}`;
  const { html, tone, importing } = cloudState(s, now);
  const forms: string[] = [];
  if (!s.connected) forms.push(`<form method="post" action="${base}/connect">${button('Connect', name, stateId)}</form>`);
  if (s.actions.reconnect) forms.push(`<form method="post" action="${base}/reconnect">${button('Reconnect', name, stateId)}</form>`);
  if (s.connected) forms.push(`<form method="post" action="${base}/disconnect">${button('Disconnect', name, stateId, true)}</form>`);
  const notes = [s.history_days ? `History: up to ${s.history_days} days back.` : '', s.note ?? ''].filter(Boolean).map(esc).join(' ');
  const extra =
    (importing !== null ? `\n    <progress max="100" value="${importing}" aria-labelledby="${stateId}">${importing} %</progress>` : '') +
    (notes ? `\n    <p class="note">${notes}</p>` : '');
  return { state: html, tone, extra, forms: forms.join('') };
}

/**
 * A phone app: it connects from the customer's app on the user's phone (its first upload, or the
 * app's connect), so the card explains that and shows what actually arrived; only Disconnect here.
 */
function phoneCard(base: string, s: SourceItem, now: Date): { state: string; tone: Tone; extra: string; forms: string } {
  const name = esc(s.name);
  const stateId = `state-${esc(s.type)}`;
  const note = `\n    <p class="note">${name} connects from the app on your phone: open it and allow it to read ${name}. Nothing to press here.</p>`;
  if (!s.connected) return { state: 'Not connected', tone: 'idle', extra: note, forms: '' };
  const since = s.connected_at ? ` since ${esc(formatDate(s.connected_at))}` : '';
  const last = s.last_synced_at ? `last upload ${timeTag(s.last_synced_at, now)}` : 'waiting for the first upload';
  const brought = s.uploaded?.resources.length ? ` · sent ${esc(deliversInWords(s.uploaded.resources))}` : '';
  const latest = s.uploaded?.last_record_at ? `, latest from ${esc(formatDate(s.uploaded.last_record_at))}` : '';
  const forms = `<form method="post" action="${base}/disconnect" data-action="disconnect">${button('Disconnect', name, stateId, true)}</form>`;
  return { state: `Connected${since} · ${last}${brought}${latest}`, tone: 'ok', extra: note, forms };
}

/** The demo source: connected here, in place when scripts run (data-action). */
function localCard(base: string, s: SourceItem): { state: string; tone: Tone; extra: string; forms: string } {
  const name = esc(s.name);
  const stateId = `state-${esc(s.type)}`;
  const forms = s.connected
    ? `<form method="post" action="${base}/disconnect" data-action="disconnect">${button('Disconnect', name, stateId, true)}</form>`
    : `<form method="post" action="${base}/connect" data-action="connect">${button('Connect', name, stateId)}</form>`;
  const state = s.connected && s.connected_at ? `Connected since ${esc(formatDate(s.connected_at))}` : 'Not connected';
  return { state, tone: s.connected ? 'ok' : 'idle', extra: '', forms };
}

export function sourceCard(token: string, s: SourceItem, now: Date): string {
  const base = `${encodeURIComponent(token)}/sources/${encodeURIComponent(s.type)}`;
  const name = esc(s.name);
  const { state, tone, extra, forms } = s.kind === 'cloud' ? cloudCard(base, s, now) : s.kind === 'mobile' ? phoneCard(base, s, now) : localCard(base, s);
  return `<li class="card" data-type="${esc(s.type)}" data-name="${name}" data-connected="${s.connected}" data-tone="${tone}">
  <span class="logo logo-${esc(s.type)}" aria-hidden="true">${esc(s.initials)}</span>
  <div class="info">
    <h3 id="src-${esc(s.type)}">${name}</h3>
    <p class="kind">${esc(KIND_LABEL[s.kind] ?? s.kind)} · ${esc(deliversInWords(s.resources))}</p>
    <p class="state" id="state-${esc(s.type)}">${state}</p>${extra}
    <div class="buttons">${forms}</div>
  </div>
</li>`;
}
