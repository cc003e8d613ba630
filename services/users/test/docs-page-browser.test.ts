/**
 * The API docs page (/docs) in a real browser (Debian's headless Chromium, as the marketplace's
 * browser test): under its strict Content-Security-Policy the page's own style applies and the
 * browser reports no violation, so the policy is as strict as the content allows and no stricter.
 * The page is the gateway's; the test lives beside the marketplace's browser test, whose package
 * holds the browser tooling (playwright-core).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, BrowserContext } from 'playwright-core';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

const ENSURE_CHROMIUM = path.join(__dirname, 'ensure-chromium.sh');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

jest.setTimeout(120_000);

let platform: TestPlatform;
let context: BrowserContext | undefined;
let dir: string;

beforeAll(async () => {
  const ensure = spawnSync('bash', [ENSURE_CHROMIUM], { stdio: 'inherit', timeout: 15 * 60_000 });
  if (ensure.status !== 0) throw new Error(`Chromium is not available (ensure-chromium.sh exited ${ensure.status ?? ensure.signal}); the browser test cannot run`);
  platform = await startTestPlatform();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-docs-chromium-'));
}, 20 * 60_000);

afterAll(async () => {
  await context?.close().catch(() => undefined);
  await platform?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

it('renders /docs with its style and no policy violation', async () => {
  context = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', args: ARGS, headless: true });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  const res = await page.goto(`${platform.url}/docs`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toMatch(/default-src 'none'/);
  await page.getByRole('heading', { level: 1 }).waitFor();
  // The inline style applied: operations are boxed, methods coloured.
  // (Strings run in the page: this project compiles without the DOM's types.)
  const box = await page.evaluate('getComputedStyle(document.querySelector(".op")).borderTopStyle');
  const get = await page.evaluate('getComputedStyle(document.querySelector(".m.get")).backgroundColor');
  expect([box, get]).toEqual(['solid', 'rgb(43, 123, 217)']);
  expect(problems).toEqual([]);
  // The listener does catch what the policy refuses: a style the page did not ship is reported.
  await page.addStyleTag({ content: 'body{color:rgb(255, 0, 0)}' }).catch(() => undefined);
  expect(await page.evaluate('getComputedStyle(document.body).color')).not.toBe('rgb(255, 0, 0)');
  const reported = () => problems.some((p) => /Content Security Policy/i.test(p));
  for (let i = 0; i < 40 && !reported(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(reported()).toBe(true);
});
