/**
 * The committed generated types equal what the served documents give (the generator's --check),
 * and the browser build bundles with no Node-only module (esbuild, platform=browser).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';

jest.setTimeout(60_000);
const run = promisify(execFile);
const SDK = path.resolve(__dirname, '..');
let platform: TestPlatform;
beforeAll(async () => (platform = await startTestPlatform()));
afterAll(() => platform?.stop());

it('the committed types match /v2/openapi.json and /v2/asyncapi.json', async () => {
  // Asynchronously: the platform that answers the script runs in this process.
  const { stdout } = await run(process.execPath, [path.join(SDK, 'scripts/generate-types.mjs'), '--base', platform.baseUrl, '--check'], { timeout: 30_000 });
  expect(stdout).toMatch(/match the served documents/);
});

it('the check fails when a committed file differs', async () => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-gen-'));
  fs.cpSync(path.join(SDK, 'scripts'), path.join(copy, 'scripts'), { recursive: true });
  fs.cpSync(path.join(SDK, 'src/generated'), path.join(copy, 'src/generated'), { recursive: true });
  fs.symlinkSync(path.join(SDK, 'node_modules'), path.join(copy, 'node_modules'));
  const file = path.join(copy, 'src/generated/openapi.ts');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('uid: string;', 'uid: number;'));
  await expect(run(process.execPath, [path.join(copy, 'scripts/generate-types.mjs'), '--base', platform.baseUrl, '--check'], { timeout: 30_000 })).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringContaining('openapi.ts differs from the served document'),
  });
  fs.rmSync(copy, { recursive: true, force: true });
});

it('bundles for browsers without Node-only modules', async () => {
  const out = path.join(os.tmpdir(), `wellstream-sdk-browser-${process.pid}.mjs`);
  await run(process.execPath, [path.join(SDK, 'scripts/build-browser.mjs'), out], { timeout: 30_000 });
  const bundle = fs.readFileSync(out, 'utf8');
  expect(bundle).toContain('verifyPushSignature');
  expect(bundle).not.toMatch(/from ["']node:|require\(["'](node:)?(crypto|http|fs)["']\)/);
});

it('the browser build fails on a Node-only import', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-node-import-'));
  fs.cpSync(path.join(SDK, 'scripts'), path.join(dir, 'scripts'), { recursive: true });
  fs.cpSync(path.join(SDK, 'src'), path.join(dir, 'src'), { recursive: true });
  fs.symlinkSync(path.join(SDK, 'node_modules'), path.join(dir, 'node_modules'));
  fs.appendFileSync(path.join(dir, 'src/index.ts'), "\nexport { createHmac } from 'node:crypto';\n");
  await expect(run(process.execPath, [path.join(dir, 'scripts/build-browser.mjs'), path.join(dir, 'out.mjs')], { timeout: 30_000 })).rejects.toMatchObject({ stderr: expect.stringContaining('Node-only module "node:crypto"') });
  fs.rmSync(dir, { recursive: true, force: true });
});
