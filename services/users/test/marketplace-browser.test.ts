/**
 * The marketplace page in a real browser (Debian's headless Chromium driven by playwright-core):
 * a user connects the demo source, sees a phone app connect by its first upload (its card has no
 * Connect: it connects from the customer's app) and disconnects it with the keyboard, chooses a time
 * zone, and the same works with scripts off (plain forms); a provider source shows its state and
 * its Connect form post may end on the provider's sign-in page (the CSP's form-action allows the
 * offered providers' origins). Screenshots go to test-artifacts/ and one to docs/.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium, BrowserContext, Page } from 'playwright-core';
import { publishEvents, sourceConnectionsTopic, sourceProvidersTopic } from '@wellstream/contracts';
import { createTenant, eventually, EventRecorder, recordTopic, Tenant } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

const ROOT = path.resolve(__dirname, '../../..');
const ARTIFACTS = path.join(ROOT, 'test-artifacts');
const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

jest.setTimeout(120_000);

describe('marketplace page in a real browser', () => {
  let platform: TestPlatform;
  let tenant: Tenant;
  let events: EventRecorder<any>;
  const contexts: BrowserContext[] = [];
  const dirs: string[] = [];

  async function openBrowser(javaScriptEnabled: boolean, viewport = { width: 1100, height: 900 }): Promise<Page> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-chromium-'));
    dirs.push(dir);
    const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: ARGS, headless: true, javaScriptEnabled, viewport });
    contexts.push(context);
    return context.pages()[0] ?? context.newPage();
  }

  async function newUser(timezone: string | null = 'UTC') {
    const res = await tenant.api.post(`/organizations/${tenant.organizationId}/users`, { uid: `browser-${Date.now().toString(36)}`, location: { timezone } });
    expect(res.status).toBe(201);
    return res.body as { id: string; uid: string; marketplace: { url: string } };
  }
  const getUser = async (uid: string) => (await tenant.api.get(`/organizations/${tenant.organizationId}/users/${uid}`)).body;

  beforeAll(async () => {
    const ensure = spawnSync('bash', [path.join(__dirname, 'ensure-chromium.sh')], { stdio: 'inherit', timeout: 15 * 60_000 });
    if (ensure.status !== 0) throw new Error(`Chromium is not available (ensure-chromium.sh exited ${ensure.status ?? ensure.signal}); the browser test cannot run`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    platform = await startTestPlatform();
    tenant = await createTenant(platform.baseUrl);
    events = await recordTopic(platform.eventLog, 'events');
  }, 20 * 60_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await events?.stop();
    await platform?.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('connects the demo source and a phone app, disconnects by keyboard and saves a time zone', async () => {
    const user = await newUser('UTC');
    const page = await openBrowser(true);
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    await page.goto(user.marketplace.url);
    await expectVisible(page.getByRole('heading', { level: 1, name: 'Connect your data sources' }));
    const status = page.getByRole('status');

    await page.getByRole('button', { name: 'Connect Demo source' }).click();
    await expectText(status, 'Demo source connected.');
    await expectVisible(page.getByRole('button', { name: 'Disconnect Demo source' }));
    expect((await getUser(user.uid)).sources).toEqual([{ type: 'demo', connected_at: expect.any(String), status: 'active', last_synced_at: null, backfill: null }]);
    const conn = await events.waitFor((e) => e.event_type === 'connection' && e.user_id === user.id);
    expect(conn.payload).toMatchObject({ action: 'connected', source: { type: 'demo' }, user: { uid: user.uid, user_id: user.id } });
    await page.screenshot({ path: path.join(ARTIFACTS, 'marketplace.png'), fullPage: true, caret: 'initial' });

    // A phone app connects from the customer's app, not here: the card says so and has no Connect.
    const appleCard = page.locator('li[data-type="apple_health"]');
    await expectText(appleCard.locator('.state'), 'Not connected');
    await expectVisible(appleCard.getByText('Apple Health connects from the app on your phone'));
    expect(await page.getByRole('button', { name: 'Connect Apple Health', exact: true }).count()).toBe(0);
    // The app's first upload connects it; the card shows the last upload and what it brought.
    const mobileToken = (await getUser(user.uid)).mobile.token;
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const record = { type: 'measurement', source: { type: 'apple_health' }, log_id: `w-${day}`, start_time: `${day}T07:00:00Z`, end_time: `${day}T07:00:00Z`, metrics: [{ type: 'body_weight', unit: 'kg', value: 71.4, origin: 'device' }] };
    const upload = await fetch(`${platform.baseUrl}/mobile/records?token=${mobileToken}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ records: [record] }) });
    expect(upload.status).toBe(200);
    await eventually(async () => ((await getUser(user.uid)).sources.find((s: any) => s.type === 'apple_health')?.uploaded ? true : undefined), 15_000);
    await page.reload();
    await expectMatching(appleCard.locator('.state'), /^Connected since .+ UTC · last upload just now · sent body measurements, latest from .+ 07:00 UTC$/);
    expect(await page.getByRole('button', { name: 'Connect Apple Health', exact: true }).count()).toBe(0);
    expect((await getUser(user.uid)).sources.map((s: any) => s.type)).toEqual(['demo', 'apple_health']);
    expect(await page.locator('dialog').count()).toBe(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'marketplace-phone.png'), fullPage: true, caret: 'initial' });

    // Keyboard only: Enter disconnects; the phone card goes back to explaining how it connects.
    const disconnect = page.getByRole('button', { name: 'Disconnect Apple Health' });
    await disconnect.focus();
    await disconnect.press('Enter');
    await expectText(status, 'Apple Health disconnected.');
    await expectText(appleCard.locator('.state'), 'Not connected');
    expect((await getUser(user.uid)).sources.map((s: any) => s.type)).toEqual(['demo']);
    await events.waitFor((e) => e.event_type === 'connection' && e.user_id === user.id && e.payload.action === 'disconnected');
    // Its uploads are refused until the app connects it again.
    const refused = await fetch(`${platform.baseUrl}/mobile/records?token=${mobileToken}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ records: [record] }) });
    expect(refused.status).toBe(422);

    // The user's own time zone.
    await page.getByLabel('Time zone used when a source does not report one').selectOption('Europe/Berlin');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await expectText(status, 'Time zone saved: Europe/Berlin.');
    expect((await getUser(user.uid)).location.timezone).toBe('Europe/Berlin');
    const json = (await (await fetch(user.marketplace.url, { headers: { accept: 'application/json' } })).json()) as any;
    expect(json.user.location).toMatchObject({ timezone: 'Europe/Berlin', timezone_origin: 'user_defined' });

    await page.screenshot({ path: path.join(ARTIFACTS, 'marketplace-final.png'), fullPage: true, caret: 'initial' });
    expect(consoleErrors).toEqual([]);
  });

  it('works without scripts: plain forms', async () => {
    const user = await newUser(null);
    const page = await openBrowser(false, { width: 390, height: 844 });
    await page.goto(user.marketplace.url);
    expect(await page.getByRole('button', { name: 'Connect Samsung Health', exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Connect Demo source' }).click();
    await expectVisible(page.getByRole('button', { name: 'Disconnect Demo source' }));
    expect(page.url()).toBe(`${user.marketplace.url}?notice=connected.demo`);
    await expectText(page.getByRole('status'), 'Demo source connected.');
    expect((await getUser(user.uid)).sources.map((s: any) => s.type)).toEqual(['demo']);
    await page.getByLabel('Time zone used when a source does not report one').selectOption('America/New_York');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await expectVisible(page.getByText('You chose this time zone.'));
    await expectText(page.getByRole('status'), 'Time zone saved: America/New York.');
    expect((await getUser(user.uid)).location.timezone).toBe('America/New_York');
    await page.screenshot({ path: path.join(ARTIFACTS, 'marketplace-mobile.png'), fullPage: true, caret: 'initial' });
  });

  it("shows a provider source's state, and its Connect may end on the provider's sign-in page", async () => {
    // The provider's sign-in page, on another origin than the platform.
    const signIn = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Sign in to Oura</title><h1>Sign in to Oura</h1>'));
    await new Promise<void>((r) => signIn.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(signIn.address() as AddressInfo).port}`;
    try {
      await publishEvents(platform.eventLog, sourceProvidersTopic, [
        { type: 'source.provider', source_type: 'oura', offered: true, history_days: null, note: null, authorize_origin: origin, occurred_at: new Date().toISOString() },
        { type: 'source.provider', source_type: 'dexcom', offered: true, history_days: 90, note: 'No live notifications: new data is fetched every 15 minutes.', authorize_origin: null, occurred_at: new Date().toISOString() },
      ]);
      const user = await newUser('UTC');
      const json = async () => (await (await fetch(user.marketplace.url, { headers: { accept: 'application/json' } })).json()) as any;
      await eventually(async () => (await json()).sources.some((s: any) => s.type === 'oura'));
      const connectedAt = new Date(Date.now() - 3600_000).toISOString();
      const base = {
        type: 'source.connection' as const, action: 'connected' as const, user_id: user.id, organization_id: tenant.organizationId, source_type: 'dexcom',
        status: 'active' as const, connected_at: connectedAt, last_synced_at: null, backfill: { state: 'running' as const, progress: 0.4, start: '2025-01-01T00:00:00.000Z', end: connectedAt }, occurred_at: connectedAt,
      };
      await publishEvents(platform.eventLog, sourceConnectionsTopic, [base, { ...base, action: 'auth_expired', status: 'auth_expired', backfill: null, occurred_at: new Date().toISOString() }]);
      await eventually(async () => (await getUser(user.uid)).sources.some((s: any) => s.status === 'auth_expired'));

      const page = await openBrowser(true);
      const blocked: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') blocked.push(m.text());
      });
      await page.goto(`${user.marketplace.url}?notice=denied.oura`);
      await expectText(page.getByRole('status'), 'You did not allow access to Oura.');
      await expectFocused(page, 'Connect Oura');
      const dexcom = page.locator('li[data-type="dexcom"]');
      await expectText(dexcom.locator('.state'), 'Access expired — reconnect');
      await expectVisible(dexcom.getByRole('button', { name: 'Reconnect Dexcom' }));
      await expectVisible(dexcom.getByText('History: up to 90 days back.', { exact: false }));
      await page.screenshot({ path: path.join(ARTIFACTS, 'marketplace-providers.png'), fullPage: true, caret: 'initial' });

      // The sources service answers Connect with a 303 to the provider (stood in for here): the
      // browser must follow it, which form-action 'self' alone would block.
      await page.route(`${user.marketplace.url}/sources/oura/connect`, (route) =>
        route.request().method() === 'POST' ? route.fulfill({ status: 303, headers: { location: `${origin}/oauth2/auth?response_type=code&state=x` } }) : route.continue(),
      );
      // A redirect to an origin no offered provider announced stays blocked (localhost is not 127.0.0.1).
      await page.route(`${user.marketplace.url}/sources/dexcom/reconnect`, (route) =>
        route.fulfill({ status: 303, headers: { location: `${origin.replace('127.0.0.1', 'localhost')}/elsewhere` } }),
      );
      await dexcom.getByRole('button', { name: 'Reconnect Dexcom' }).click();
      await eventually(async () => blocked.some((m) => /form-action/.test(m)), 10_000);
      await page.getByRole('button', { name: 'Connect Oura' }).click();
      await expectVisible(page.getByRole('heading', { name: 'Sign in to Oura' }));
      expect(page.url()).toBe(`${origin}/oauth2/auth?response_type=code&state=x`);
      // Only the redirect to the unannounced origin was blocked.
      expect(blocked.filter((m) => /form-action/.test(m))).toEqual([expect.stringContaining('/sources/dexcom/reconnect')]);
    } finally {
      await new Promise((r) => signIn.close(r));
    }
  });

  it('shows a 404 page for an outdated link', async () => {
    const user = await newUser();
    const refreshed = await tenant.api.post(`/organizations/${tenant.organizationId}/users/${user.uid}/marketplace`);
    expect(refreshed.status).toBe(200);
    const page = await openBrowser(true);
    const res = await page.goto(user.marketplace.url);
    expect(res?.status()).toBe(404);
    await expectVisible(page.getByRole('heading', { name: 'This link does not work' }));
  });

  afterAll(() => {
    // The README shows the page as a user sees it after connecting the demo source. The committed
    // copy is written when missing or on request, so ordinary runs leave the work tree clean.
    const shot = path.join(ARTIFACTS, 'marketplace.png');
    const docsShot = path.join(ROOT, 'docs', 'marketplace.png');
    if (fs.existsSync(shot) && (!fs.existsSync(docsShot) || process.env.WELLSTREAM_UPDATE_DOCS_SCREENSHOT === '1')) {
      fs.mkdirSync(path.join(ROOT, 'docs'), { recursive: true });
      fs.copyFileSync(shot, docsShot);
    }
  });
});

async function expectVisible(locator: import('playwright-core').Locator) {
  await locator.waitFor({ state: 'visible', timeout: 10_000 });
}

async function expectMatching(locator: import('playwright-core').Locator, re: RegExp) {
  const deadline = Date.now() + 10_000;
  let last = '';
  while (Date.now() < deadline) {
    last = ((await locator.textContent()) ?? '').trim();
    if (re.test(last)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected ${re}, got "${last}"`);
}

async function expectText(locator: import('playwright-core').Locator, text: string) {
  const deadline = Date.now() + 10_000;
  let last = '';
  while (Date.now() < deadline) {
    last = (await locator.textContent()) ?? '';
    if (last.trim() === text) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected "${text}", got "${last}"`);
}

async function expectFocused(page: Page, accessibleLabel: string) {
  const deadline = Date.now() + 5_000;
  let last: string | null = null;
  while (Date.now() < deadline) {
    // Runs in the page; the test project has no DOM typings.
    last = await page.evaluate('document.activeElement && document.activeElement.getAttribute("aria-label")');
    if (last === accessibleLabel) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected focus on "${accessibleLabel}", found "${last}"`);
}
