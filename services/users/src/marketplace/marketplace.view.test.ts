/**
 * What the marketplace lists and says: demo, phone apps and the offered cloud sources only (no
 * Fitbit), each provider source with its connection state, history note and actions; the page's
 * words for those states; and the page's CSP letting form posts end on offered sign-in pages.
 */
import { SOURCES } from '@wellstream/catalog';
import { newUser, User } from '../users/user';
import type { SourceProvider } from '../sources/source-provider.repository';
import { marketplaceView, signInOrigins } from '@wellstream/contracts';
import { contentSecurityPolicy, cspOrigin } from './page/html-document';
import { marketplacePage, noticeOf } from './page/marketplace-page.html';
import { timeAgo } from './page/source-card.html';

/** The page's view, from the user's copy of its sources (what the users service renders). */
const viewOf = (user: User, url: string, providers: SourceProvider[]) => marketplaceView(user, url, user.sources, providers);

const URL = 'https://wellstream.example/v2/marketplace/mkt_x';
const NOW = new Date('2025-03-01T12:00:00.000Z');

const provider = (source_type: string, over: Partial<SourceProvider> = {}): SourceProvider => ({
  source_type,
  offered: true,
  history_days: null,
  note: null,
  authorize_origin: null,
  occurred_at: '2025-03-01T00:00:00.000Z',
  ...over,
});
const PROVIDERS = [
  provider('oura', { authorize_origin: 'https://cloud.ouraring.com' }),
  provider('withings', { offered: false }),
  provider('dexcom', { history_days: 90, note: 'No live notifications: new data is fetched every 15 minutes.', authorize_origin: 'https://api.dexcom.com' }),
];

const userWith = (sources: User['sources']): User => ({
  ...newUser({ uid: 'u-1', organizationId: 'org-1', customerId: 'cus-1', location: { timezone: 'UTC', country_code: null }, now: '2025-03-01T00:00:00.000Z' }),
  sources,
});

describe('marketplace view', () => {
  it('lists demo, the phone apps and the offered cloud sources only; Fitbit is gone', () => {
    const view = viewOf(userWith([]), URL, PROVIDERS);
    expect(view.sources.map((s) => s.type)).toEqual(['demo', 'oura', 'dexcom', 'apple_health', 'health_connect', 'samsung_health']);
    expect(SOURCES.some((s) => s.type === 'fitbit')).toBe(false);
    expect(viewOf(userWith([]), URL, []).sources.every((s) => s.kind !== 'cloud')).toBe(true);
  });

  it('gives every source the same fields; a provider source its state, history note and actions', () => {
    const backfill = { state: 'running' as const, progress: 0.4, start: '2024-12-01T00:00:00.000Z', end: '2025-03-01T00:00:00.000Z' };
    const view = viewOf(userWith([{ type: 'dexcom', connected_at: '2025-03-01T00:00:00.000Z', status: 'active', last_synced_at: null, backfill }]), URL, PROVIDERS);
    const dexcom = view.sources.find((s) => s.type === 'dexcom');
    expect(dexcom).toEqual({
      type: 'dexcom',
      name: 'Dexcom',
      kind: 'cloud',
      resources: ['cgm', 'measurement'],
      initials: 'Dx',
      color: '#58a618',
      connected: true,
      connected_at: '2025-03-01T00:00:00.000Z',
      status: 'active',
      last_synced_at: null,
      backfill,
      history_days: 90,
      note: 'No live notifications: new data is fetched every 15 minutes.',
      actions: { connect: `${URL}/sources/dexcom/connect`, disconnect: `${URL}/sources/dexcom/disconnect` },
    });
    expect(view.sources.find((s) => s.type === 'demo')).toMatchObject({ connected: false, status: null, last_synced_at: null, backfill: null, history_days: null, note: null });
    expect(view.sources.every((s) => !('consent_required' in s))).toBe(true);
  });

  it('offers reconnect while access is expired', () => {
    const view = viewOf(userWith([{ type: 'oura', connected_at: '2025-03-01T00:00:00.000Z', status: 'auth_expired', last_synced_at: null, backfill: null }]), URL, PROVIDERS);
    expect(view.sources.find((s) => s.type === 'oura')!.actions).toEqual({
      connect: `${URL}/sources/oura/connect`,
      reconnect: `${URL}/sources/oura/reconnect`,
      disconnect: `${URL}/sources/oura/disconnect`,
    });
  });

  it('keeps a connected cloud source listed after it stops being offered, so it can be disconnected', () => {
    const view = viewOf(userWith([{ type: 'withings', connected_at: '2025-03-01T00:00:00.000Z', status: 'error', last_synced_at: null, backfill: null }]), URL, PROVIDERS);
    expect(view.sources.find((s) => s.type === 'withings')).toMatchObject({ connected: true, status: 'error' });
  });
});

describe('marketplace page', () => {
  const page = (sources: User['sources'], notice?: string) => marketplacePage('mkt_x', viewOf(userWith(sources), URL, PROVIDERS), ['UTC'], NOW, notice).body;
  const since = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000).toISOString();
  const entry = (over: Partial<User['sources'][number]>) => ({ type: 'oura', connected_at: since(600), status: 'active' as const, last_synced_at: since(5), backfill: null, ...over });

  it('says each provider state in words', () => {
    expect(page([entry({})])).toMatch(/Connected · last synced <time datetime="[^"]+" title="[^"]+">5 minutes ago<\/time>/);
    expect(page([entry({ last_synced_at: null })])).toContain('Connected · waiting for the first sync');
    const importing = page([entry({ backfill: { state: 'running', progress: 0.4, start: since(90 * 1440), end: since(600) } })]);
    expect(importing).toContain('Importing your history… 40 %');
    expect(importing).toMatch(/<progress max="100" value="40" aria-labelledby="state-oura">/);
    expect(page([entry({ status: 'error' })])).toContain('Sync problem');
    const expired = page([entry({ status: 'auth_expired' })]);
    expect(expired).toContain('Access expired — reconnect');
    expect(expired).toContain('<form method="post" action="mkt_x/sources/oura/reconnect"><button type="submit" aria-label="Reconnect Oura" aria-describedby="state-oura">Reconnect</button></form>');
    expect(page([])).toContain('History: up to 90 days back. No live notifications: new data is fetched every 15 minutes.');
  });

  it('says what each source delivers and that its history was imported, in words', () => {
    const html = page([entry({ backfill: { state: 'done', progress: 1, start: '2025-01-30T00:00:00.000Z', end: since(600) } })]);
    expect(html).toMatch(/Connected · history imported from 30 Jan 2025 · last synced <time/);
    expect(html).toContain('Online account · sleep, daily activity, workouts and minute-by-minute data');
    expect(html).toContain('Phone app · body measurements, meals, sleep, daily activity, workouts and minute-by-minute data');
  });

  it('posts provider forms plainly (no script interception) and keeps the demo in place', () => {
    const html = page([entry({})]);
    expect(html).toContain('<form method="post" action="mkt_x/sources/dexcom/connect"><button');
    expect(html).toContain('<form method="post" action="mkt_x/sources/oura/disconnect"><button');
    expect(html).toContain('<form method="post" action="mkt_x/sources/demo/connect" data-action="connect">');
    expect(html).not.toMatch(/consent|<dialog/i);
  });

  it('turns the redirects\' notices into words, and nothing else', () => {
    const view = viewOf(userWith([]), URL, PROVIDERS);
    expect(noticeOf(view, 'connected.oura')).toEqual({ text: 'Oura connected.', tone: 'ok' });
    expect(noticeOf(view, 'reconnected.oura')).toEqual({ text: 'Oura reconnected.', tone: 'ok' });
    expect(noticeOf(view, 'disconnected.withings')).toEqual({ text: 'Withings disconnected.', tone: 'ok' });
    expect(noticeOf(view, 'denied.dexcom')).toEqual({ text: 'You did not allow access to Dexcom.', tone: 'warn' });
    expect(noticeOf(view, 'error.oura')).toEqual({ text: 'Oura could not be connected. Please try again.', tone: 'error' });
    for (const odd of ['connected.fitbit', 'hacked.oura', 'constructor.oura', 'oura', '.oura', 'connected.']) expect(noticeOf(view, odd)).toBeNull();
    expect(page([], 'denied.oura')).toContain('<p id="status" class="status warn" role="status" aria-live="polite" aria-atomic="true">You did not allow access to Oura.</p>');
  });

  it('counts time in words', () => {
    expect(timeAgo(since(0.5), NOW)).toBe('just now');
    expect(timeAgo(since(1), NOW)).toBe('1 minute ago');
    expect(timeAgo(since(125), NOW)).toBe('2 hours ago');
    expect(timeAgo(since(3 * 1440), NOW)).toBe('3 days ago');
    expect(timeAgo(new Date(NOW.getTime() + 5000).toISOString(), NOW)).toBe('just now');
  });
});

describe('content security policy', () => {
  it('lets form posts end on the offered providers\' sign-in origins, and nowhere else', () => {
    const origins = signInOrigins(PROVIDERS);
    expect(origins).toEqual(['https://cloud.ouraring.com', 'https://api.dexcom.com']);
    const csp = contentSecurityPolicy('n0nce', origins);
    expect(csp.split('; ')).toContain("form-action 'self' https://cloud.ouraring.com https://api.dexcom.com");
    expect(csp).toContain("default-src 'none'");
    expect(contentSecurityPolicy('n0nce').split('; ')).toContain("form-action 'self'");
  });

  it('takes only origins, never anything that could bend the policy', () => {
    expect(cspOrigin('http://127.0.0.1:4555/oauth/authorize?x=1')).toBe('http://127.0.0.1:4555');
    expect(cspOrigin("https://evil.example; script-src 'unsafe-inline'")).toBeNull();
    expect(cspOrigin('javascript:alert(1)')).toBeNull();
    expect(cspOrigin('not a url')).toBeNull();
    expect(contentSecurityPolicy('n', ['https://a.example/x', 'https://a.example', 'ftp://b.example'])).toContain("form-action 'self' https://a.example;");
  });
});
