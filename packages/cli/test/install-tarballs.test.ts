/**
 * The packages as a customer gets them: both tarballs made by the release script (plain `npm pack`,
 * prepack builds), installed with plain npm into an empty folder outside the repository, the SDK
 * README's example type-checked against the installed types and run against a real embedded
 * platform, and the CLI installed globally on its own (nothing of ours on a registry) answering
 * `--help` and `--version`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { startTestPlatform, TestPlatform } from '@wellstream/platform/testing';
import { sdkTenant } from '../../sdk/test/sdk-fixtures';

jest.setTimeout(240_000);
const run = promisify(execFile);
const root = path.resolve(__dirname, '../../..');
let platform: TestPlatform;
let work: string;
let tarballs: string[];

// npm's own environment from a parent `npm test` (npm_config_*) would point it at this workspace.
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
const npm = (cwd: string, ...args: string[]) => run('npm', ['--no-audit', '--no-fund', '--loglevel=error', ...args], { cwd, env: cleanEnv(), timeout: 180_000 });

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-install-'));
  const out = await run(process.execPath, [path.join(root, 'scripts/release-packages.mjs'), '--out', path.join(work, 'tarballs')], { cwd: root, env: cleanEnv(), timeout: 180_000 });
  tarballs = out.stdout.trim().split('\n');
  platform = await startTestPlatform();
});
afterAll(() => platform?.stop());

it('makes tarballs with built files and no workspace ranges', async () => {
  expect(tarballs.map((t) => path.basename(t))).toEqual(['wellstream-sdk-0.1.0.tgz', 'wellstream-cli-0.1.0.tgz']);
  for (const t of tarballs) {
    const { stdout } = await run('tar', ['-xzOf', t, 'package/package.json']);
    const pkg = JSON.parse(stdout);
    expect(JSON.stringify({ ...pkg.dependencies, ...pkg.peerDependencies })).not.toMatch(/workspace:/);
    expect(pkg).toMatchObject({ engines: { node: '>=20' }, sideEffects: false });
    const files = (await run('tar', ['-tzf', t])).stdout;
    for (const f of Object.values<string>(pkg.bin ?? {}).concat(pkg.main ?? [], pkg.types ?? [], pkg.browser ?? [])) expect(files).toContain(`package/${f}`);
  }
});

it("installs both into an empty folder with plain npm; the SDK README's example type-checks and runs", async () => {
  const app = path.join(work, 'app');
  fs.mkdirSync(app);
  await npm(app, 'install', ...tarballs);
  const readme = fs.readFileSync(path.join(root, 'packages/sdk/README.md'), 'utf8');
  const example = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Getting started')))![1];
  fs.writeFileSync(path.join(app, 'example.mts'), example);
  const program = ts.createProgram([path.join(app, 'example.mts')], { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, types: ['node'], typeRoots: [path.join(root, 'node_modules/@types')] });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(diagnostics).toEqual([]);
  fs.writeFileSync(path.join(app, 'example.mjs'), ts.transpileModule(example, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);

  const t = await sdkTenant(platform.baseUrl);
  const env = { ...cleanEnv(), WELLSTREAM_API_URL: platform.baseUrl, WELLSTREAM_API_TOKEN: t.token, WELLSTREAM_ORG: t.orgId };
  const { stdout } = await run(process.execPath, ['example.mjs'], { cwd: app, env, timeout: 60_000 });
  expect(stdout).toMatch(/^event \d+-\d+ measurement \d{4}-\d\d-\d\dT/m);
  expect(stdout).toMatch(/^1 measurement\(s\); \d+ requests left this hour$/m);
  // The CLI installed beside it runs from node_modules/.bin.
  expect((await run(path.join(app, 'node_modules/.bin/wellstream'), ['--version'], { env })).stdout.trim()).toBe('0.1.0');
});

it('installs the CLI alone, globally, and it answers --help', async () => {
  const prefix = path.join(work, 'global');
  await npm(work, 'install', '-g', '--prefix', prefix, tarballs[1]);
  const bin = path.join(prefix, 'bin/wellstream');
  const help = await run(bin, ['--help'], { env: cleanEnv() });
  expect(help.stdout).toMatch(/^Usage: wellstream/);
  expect(help.stdout).toMatch(/listen/);
  expect(fs.readdirSync(path.join(prefix, 'lib/node_modules'))).toEqual(['@wellstream']);
  expect(fs.existsSync(path.join(prefix, 'lib/node_modules/@wellstream/cli/node_modules'))).toBe(false);
});
