#!/usr/bin/env node
/**
 * `npm test`: install and build, type-check, then run every jest project: unit and integration
 * (real servers included; deploy/servers starts them), then the fault tests alone (they kill and
 * restart servers of their own; alone, their load does not slow the other suites' timings).
 * Extra arguments go to jest.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const step = (label, cmd, args) => {
  console.log(`\n[test] ${label}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (r.status !== 0) {
    console.error(`[test] ${label} failed`);
    process.exit(r.status ?? 1);
  }
};
step('install and build', process.execPath, [path.join(root, 'scripts', 'bootstrap.mjs')]);
step('type-check tests', process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']);
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const extra = process.argv.slice(2);
if (extra.includes('--selectProjects')) {
  step('jest', process.execPath, [jest, '--maxWorkers=2', ...extra]);
} else {
  step('jest', process.execPath, [jest, '--maxWorkers=2', ...extra, '--selectProjects', 'unit', 'integration']);
  step('jest (faults)', process.execPath, [jest, '--maxWorkers=1', '--passWithNoTests', ...extra, '--selectProjects', 'faults']);
}
