/**
 * A provider connected the way a user does it, in a real browser (Debian's headless Chromium
 * through playwright-core): the marketplace's Connect button, the real 303 to the provider's
 * sign-in page (the Oura simulator's, on another origin), Allow, the callback, and back on the
 * marketplace the source connected with its history importing; then Deny shows its own notice.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, BrowserContext, Locator, Page } from 'playwright-core';
import { createTenant, eventually, Tenant } from '@wellstream/testing';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { OuraSimulator } from '../src/providers/oura/simulator/oura-simulator';

const ROOT = path.resolve(__dirname, '../../..');
const ARTIFACTS = path.join(ROOT, 'test-artifacts');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

jest.setTimeout(180_000);

describe('connecting a provider in a real browser', () => {
  let platform: TestPlatform;
  let tenant: Tenant;
  let sim: OuraSimulator;
  let context: BrowserContext;
  let dir: string;

  beforeAll(async () => {
    const ensure = spawnSync('bash', [path.join(ROOT, 'services/users/test/ensure-chromium.sh')], { stdio: 'inherit', timeout: 15 * 60_000 });
    if (ensure.status !== 0) throw new Error(`Chromium is not available (ensure-chromium.sh exited ${ensure.status ?? ensure.signal})`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    sim = new OuraSimulator();
    await sim.start();
    platform = await startTestPlatform({ env: { ...sim.env(), WELLSTREAM_SOURCE_BACKFILL_DAYS: '5', WELLSTREAM_SOURCE_SCHEDULER_TICK_MS: '100' } });
    tenant = await createTenant(platform.baseUrl);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-chromium-'));
    context = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', args: ARGS, headless: true, viewport: { width: 1100, height: 900 } });
  }, 20 * 60_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await platform?.stop();
    await sim?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('connects Oura through its sign-in page and shows the history arriving', async () => {
    const created = await tenant.api.post(`/organizations/${tenant.organizationId}/users`, { uid: `browser-oura-${Date.now().toString(36)}`, location: { timezone: 'Europe/Berlin' } });
    expect(created.status).toBe(201);
    const user = created.body as { uid: string; marketplace: { url: string } };
    const who = sim.createUser({ days: 7, now: new Date() });
    sim.setBrowserUser(who);
    const page: Page = context.pages()[0] ?? (await context.newPage());
    // The marketplace lists Oura once the sources service has said it is offered.
    await eventually(async () => {
      await page.goto(user.marketplace.url);
      return (await page.getByRole('button', { name: 'Connect Oura' }).count()) > 0;
    }, 20_000, 300);

    await page.getByRole('button', { name: 'Connect Oura' }).click();
    await visible(page.getByRole('heading', { name: 'Allow access to your Oura data?' }));
    expect(new URL(page.url()).origin).toBe(new URL(sim.url).origin);
    await page.getByRole('button', { name: 'Allow' }).click();

    await text(page.getByRole('status'), 'Oura connected.');
    expect(page.url().startsWith(user.marketplace.url)).toBe(true);
    const source = await eventually(async () => {
      const u = (await tenant.api.get(`/organizations/${tenant.organizationId}/users/${user.uid}`)).body;
      return u.sources.find((s: any) => s.type === 'oura' && s.backfill?.state === 'done');
    }, 60_000, 300);
    expect(source.status).toBe('active');
    await page.reload();
    await visible(page.getByRole('button', { name: 'Disconnect Oura' }));
    await page.screenshot({ path: path.join(ARTIFACTS, 'marketplace-oura-connected.png'), fullPage: true });

    // Disconnect, then connect again and refuse at the provider.
    await page.getByRole('button', { name: 'Disconnect Oura' }).click();
    await text(page.getByRole('status'), 'Oura disconnected.');
    await eventually(async () => {
      await page.goto(user.marketplace.url);
      return (await page.getByRole('button', { name: 'Connect Oura' }).count()) > 0;
    }, 20_000, 300);
    await page.getByRole('button', { name: 'Connect Oura' }).click();
    await page.getByRole('button', { name: 'Deny' }).click();
    await text(page.getByRole('status'), 'You did not allow access to Oura.');
  });
});

async function visible(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: 15_000 });
}

async function text(locator: Locator, want: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  let last = '';
  while (Date.now() < deadline) {
    last = ((await locator.textContent()) ?? '').trim();
    if (last === want) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`expected "${want}", saw "${last}"`);
}
