#!/usr/bin/env node
/**
 * Runs before `npm pack`/`npm publish` (and pnpm's): the workspace is installed and built by the
 * repository's own bootstrap (it fetches pnpm through npm, so plain npm is enough), then the
 * browser bundle is written, so the tarball always holds the files package.json points at.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(pkgDir, '..', '..');
execFileSync(process.execPath, [path.join(root, 'scripts', 'bootstrap.mjs')], { cwd: root, stdio: ['ignore', 2, 2] });
execFileSync(process.execPath, [path.join(pkgDir, 'scripts', 'build-browser.mjs')], { cwd: pkgDir, stdio: ['ignore', 2, 2] });
for (const f of ['dist/index.js', 'dist/index.d.ts', 'dist/browser.mjs']) {
  if (!fs.existsSync(path.join(pkgDir, f))) throw new Error(`prepack: ${f} was not built`);
}
