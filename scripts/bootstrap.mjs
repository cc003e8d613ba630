#!/usr/bin/env node
/**
 * Makes a fresh clone runnable with only Node.js 20 and npm: fetches the pinned pnpm from the npm
 * registry (no global install), installs the workspace when package manifests changed, and builds
 * the TypeScript project references (incremental, so a second run takes a second or two).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const pnpmVersion = pkg.packageManager.split('@')[1];
const env = { ...process.env };
// Native addons compile against the local Node headers; nothing is downloaded at install time.
if (fs.existsSync('/usr/include/node/node.h')) env.npm_config_nodedir ??= '/usr';

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env, ...opts });
  if (r.status !== 0) {
    console.error(`\n[bootstrap] failed: ${cmd} ${args.join(' ')} (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

export function pnpm(args, opts) {
  run('npm', ['exec', '--yes', `pnpm@${pnpmVersion}`, '--', ...args], opts);
}

function manifestsHash() {
  const h = createHash('sha256');
  const files = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml'];
  for (const dir of ['libs', 'services', 'packages']) {
    if (!fs.existsSync(path.join(root, dir))) continue;
    for (const d of fs.readdirSync(path.join(root, dir))) files.push(path.join(dir, d, 'package.json'));
  }
  files.push('gateway/package.json', 'platform/package.json');
  for (const f of files.sort()) {
    const p = path.join(root, f);
    if (fs.existsSync(p)) h.update(f).update(fs.readFileSync(p));
  }
  return h.digest('hex');
}

const stamp = path.join(root, 'node_modules', '.wellstream-install');
const want = manifestsHash();
const have = fs.existsSync(stamp) ? fs.readFileSync(stamp, 'utf8') : '';
if (want !== have) {
  console.log('[bootstrap] installing dependencies (first run compiles the SQLite addon; about a minute)…');
  const frozen = fs.existsSync(path.join(root, 'pnpm-lock.yaml')) && process.env.CI ? ['--frozen-lockfile'] : [];
  pnpm(['install', '--reporter=append-only', ...frozen]);
  fs.writeFileSync(stamp, manifestsHash());
}

if (!process.argv.includes('--no-build')) {
  run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json']);
}
