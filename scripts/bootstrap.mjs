#!/usr/bin/env node
/**
 * Makes a fresh clone runnable with only Node.js 20 and npm: fetches the pinned pnpm from the npm
 * registry (no global install), installs the workspace when package manifests changed (the first
 * time this compiles the SQLite addon), checks that the addon loads, and builds the TypeScript
 * project references (incremental, so a second run takes a second or two).
 *
 * Each step prints one line with its duration; its output goes to `.wellstream/logs/<step>.log`
 * and is shown (the last lines, the log's path and the command that retries the step) only when
 * the step fails (scripts/quiet-step.mjs). WELLSTREAM_VERBOSE=1 shows everything as it comes.
 *
 * WELLSTREAM_BOOTSTRAP_SIMULATE_FAILURE=<install|sqlite|build> makes that step fail on purpose,
 * so a test can prove what a newcomer sees when one does (test/first-start.test.ts).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runStep, StepFailed } from './quiet-step.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const pnpmVersion = pkg.packageManager.split('@')[1];
const env = { ...process.env };
// Native addons compile against the local Node headers; nothing is downloaded at install time.
if (fs.existsSync('/usr/include/node/node.h')) env.npm_config_nodedir ??= '/usr';
const simulateFailure = process.env.WELLSTREAM_BOOTSTRAP_SIMULATE_FAILURE;

/** A step's command, or (when a test asks) one that fails the way a broken step would. */
function command(step, cmd, args) {
  if (simulateFailure !== step) return { cmd, args };
  const script = `console.log('simulated output of the ${step} step'); console.error('simulated error: the ${step} step broke'); process.exit(7)`;
  return { cmd: process.execPath, args: ['-e', script] };
}

function manifestsHash() {
  const h = createHash('sha256');
  const files = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml'];
  for (const dir of ['libs', 'services', 'packages', 'examples']) {
    if (!fs.existsSync(path.join(root, dir))) continue;
    for (const d of fs.readdirSync(path.join(root, dir))) files.push(path.join(dir, d, 'package.json'));
  }
  files.push('gateway/package.json', 'edge/package.json', 'platform/package.json');
  for (const f of files.sort()) {
    const p = path.join(root, f);
    if (fs.existsSync(p)) h.update(f).update(fs.readFileSync(p));
  }
  return h.digest('hex');
}

async function main() {
  const stamp = path.join(root, 'node_modules', '.wellstream-install');
  const want = manifestsHash();
  const have = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8') : '';
  if (want !== have || simulateFailure === 'install') {
    const frozen = fs.existsSync(path.join(root, 'pnpm-lock.yaml')) && process.env.CI ? ['--frozen-lockfile'] : [];
    const pnpmArgs = ['exec', '--yes', `pnpm@${pnpmVersion}`, '--', 'install', '--reporter=append-only', ...frozen];
    await runStep({
      root,
      name: 'install',
      label: 'installing dependencies (the first time also compiles the SQLite addon: about a minute)',
      ...command('install', 'npm', pnpmArgs),
      env,
      retry: `npm ${pnpmArgs.join(' ')}`,
    });
    fs.writeFileSync(stamp, manifestsHash());
  }

  // A loaded addon, not just an installed one: a compile that "succeeded" against the wrong Node
  // headers only shows when the platform opens its first database.
  const probe = "const D = require(require.resolve('better-sqlite3', { paths: ['libs/sqlite'] })); new D(':memory:').prepare('select 1').get()";
  await runStep({
    root,
    name: 'sqlite-addon',
    label: 'checking the SQLite addon',
    ...command('sqlite', process.execPath, ['-e', probe]),
    env,
    retry: `npm exec --yes pnpm@${pnpmVersion} -- rebuild better-sqlite3`,
  });

  if (!process.argv.includes('--no-build')) {
    const tsc = [path.join('node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'];
    await runStep({ root, name: 'build', label: 'building (TypeScript)', ...command('build', process.execPath, tsc), env, retry: `node ${tsc.join(' ')}` });
  }
}

main().catch((err) => {
  if (!(err instanceof StepFailed)) console.error(`[wellstream] set-up failed: ${err?.stack ?? err}`);
  process.exit(1);
});
