#!/usr/bin/env node
/**
 * `npm run build` in this package: the TypeScript build (dist/*.js and .d.ts), the browser bundle
 * (scripts/build-browser.mjs) and the reference docs/sdk-reference, written by typedoc from the
 * sources (typedoc.json). The reference is the build's output like the rest, never edited by hand;
 * test/sdk-reference.test.ts runs this script's docs step and fails when the committed copy differs.
 *
 *   node scripts/build.mjs                    # everything
 *   node scripts/build.mjs --docs-only [--docs-out <dir>]   # only the reference (elsewhere with --docs-out)
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const docsOnly = args.includes('--docs-only');
const outAt = args.indexOf('--docs-out');
const docsOut = outAt >= 0 ? path.resolve(args[outAt + 1] ?? '') : undefined;
const run = (script, scriptArgs) => execFileSync(process.execPath, [script, ...scriptArgs], { cwd: pkgDir, stdio: ['ignore', 'inherit', 'inherit'] });

if (!docsOnly) {
  // The workspace's TypeScript, the same compiler the repository's build (tsc -b) uses.
  run(path.join(pkgDir, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc'), ['-b', 'tsconfig.json']);
  run(path.join(pkgDir, 'scripts', 'build-browser.mjs'), []);
}
run(path.join(pkgDir, 'node_modules', 'typedoc', 'bin', 'typedoc'), ['--logLevel', 'Error', ...(docsOut ? ['--out', docsOut] : [])]);
