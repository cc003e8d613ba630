/**
 * The marketplace page in a real browser (Debian's headless Chromium driven by playwright-core):
 * a user connects the demo source, goes through the consent dialog of a cloud source (cancel,
 * then allow), disconnects with the keyboard, chooses a time zone, and the same works with
 * scripts off (forms and the consent page). Screenshots go to test-artifacts/ and one to docs/.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, BrowserContext, Page } from 'playwright-core';
import { createTenant, startTestPlatform, Tenant, TestPlatform } from '@wellstream/testing';
import { EventRecorder, recordTopic } from './event-recorder';

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

  it('connects the demo source, handles consent, disconnects by keyboard and saves a time zone', async () => {
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

    // The demo source needs no consent.
    await page.getByRole('button', { name: 'Connect Demo source' }).click();
    await expectText(status, 'Demo source connected.');
    await expectVisible(page.getByRole('button', { name: 'Disconnect Demo source' }));
    expect((await getUser(user.uid)).sources).toEqual([{ type: 'demo', connected_at: expect.any(String) }]);
    const conn = await events.waitFor((e) => e.event_type === 'connection' && e.user_id === user.id);
    expect(conn.payload).toMatchObject({ action: 'connected', source: { type: 'demo' }, user: { uid: user.uid, user_id: user.id } });
    await page.screenshot({ path: path.join(ARTIFACTS, 'marketplace.png'), fullPage: true, caret: 'initial' });

    // A cloud source asks for consent: cancel first, then allow.
    await page.getByRole('button', { name: 'Connect Fitbit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Allow Wellstream to read your Fitbit data?' });
    await expectVisible(dialog);
    await page.screenshot({ path: path.join(ARTIFACTS, 'marketplace-consent.png'), caret: 'initial' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expectText(status, 'Not connected: you cancelled access to Fitbit.');
    expect((await getUser(user.uid)).sources.map((s: any) => s.type)).toEqual(['demo']);
    await page.getByRole('button', { name: 'Connect Fitbit' }).click();
    await dialog.getByRole('button', { name: 'Allow' }).click();
    await expectText(status, 'Fitbit connected.');
    expect((await getUser(user.uid)).sources.map((s: any) => s.type)).toEqual(['demo', 'fitbit']);

    // Keyboard only: focus stays on the acted-on card, Enter disconnects.
    const disconnect = page.getByRole('button', { name: 'Disconnect Fitbit' });
    await expectFocused(page, 'Disconnect Fitbit');
    await disconnect.press('Enter');
    await expectText(status, 'Fitbit disconnected.');
    expect((await getUser(user.uid)).sources.map((s: any) => s.type)).toEqual(['demo']);
    await events.waitFor((e) => e.event_type === 'connection' && e.user_id === user.id && e.payload.action === 'disconnected');

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

  it('works without scripts: forms and the provider consent page', async () => {
    const user = await newUser(null);
    const page = await openBrowser(false, { width: 390, height: 844 });
    await page.goto(user.marketplace.url);
    await page.getByRole('button', { name: 'Connect Garmin Connect' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Allow Wellstream to read your Garmin Connect data?' }));
    await page.getByRole('button', { name: 'Allow' }).click();
    await expectVisible(page.getByRole('button', { name: 'Disconnect Garmin Connect' }));
    expect(page.url()).toBe(`${user.marketplace.url}?notice=connected.garmin`);
    await expectText(page.getByRole('status'), 'Garmin Connect connected.');
    expect((await getUser(user.uid)).sources.map((s: any) => s.type)).toEqual(['garmin']);
    await page.getByLabel('Time zone used when a source does not report one').selectOption('America/New_York');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await expectVisible(page.getByText('You chose this time zone.'));
    await expectText(page.getByRole('status'), 'Time zone saved: America/New York.');
    expect((await getUser(user.uid)).location.timezone).toBe('America/New_York');
    await page.screenshot({ path: path.join(ARTIFACTS, 'marketplace-mobile.png'), fullPage: true, caret: 'initial' });
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
