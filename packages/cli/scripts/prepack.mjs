#!/usr/bin/env node
/**
 * Runs before `npm pack`/`npm publish` (and pnpm's): the workspace is installed and built by the
 * repository's own bootstrap (it fetches pnpm through npm, so plain npm is enough), then the
 * executable is bundled (scripts/bundle.mjs), so the tarball holds the file `bin` points at.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = path.resolve(pkgDir, '..', '..');
execFileSync(process.execPath, [path.join(root, 'scripts', 'bootstrap.mjs')], { cwd: root, stdio: ['ignore', 2, 2] });
execFileSync(process.execPath, [path.join(pkgDir, 'scripts', 'bundle.mjs')], { cwd: pkgDir, stdio: ['ignore', 2, 2] });
