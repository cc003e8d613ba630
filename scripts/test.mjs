#!/usr/bin/env node
/**
 * `npm test`: install and build, type-check, then run every jest project: unit, component and
 * integration (real servers included; deploy/servers starts them), then the fault tests alone (they
 * kill and restart servers of their own; alone, their load does not slow the other suites' timings),
 * then the container tests (deploy/containers: images built with podman, the platform from docker-compose.yml).
 * Extra arguments go to jest. Given a path (`npm test -- services/records/test/records-api.both.test.ts`,
 * or a folder), one jest run covers every project that holds a test under it, and nothing else runs:
 * jest starts a project's servers or images only when that project has a test to run.
 *
 * It ends with the counts summed over every jest run, in TAP's closing form (`# tests N`, `# pass N`,
 * `# fail N`) and as one plain last line, `tests: N passed, N failed, N skipped`: jest's own summary
 * ("Tests: 5 passed, 5 total") is split per run and is not a format CI tools read.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const artifacts = path.join(root, 'test-artifacts');
const totals = { passed: 0, failed: 0, skipped: 0 };

const summary = () => {
  const { passed, failed, skipped } = totals;
  console.log(`\n# tests ${passed + failed + skipped}\n# pass ${passed}\n# fail ${failed}\n# skipped ${skipped}`);
  console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
};
const step = (label, cmd, args) => {
  console.log(`\n[test] ${label}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: process.env });
  return r.status ?? 1;
};
const mustPass = (label, cmd, args) => {
  const status = step(label, cmd, args);
  if (status !== 0) {
    console.error(`[test] ${label} failed`);
    process.exit(status);
  }
};
/**
 * Repeats each failure, briefly, after the run: in a long log jest's own account of a failure sits
 * far from the end, among the suites' console output, where a reader of the last lines misses it.
 */
const recapFailures = (report) => {
  const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, '');
  const brief = (text) => plain(text).split('\n').filter((l) => l.trim() && !/node_modules|node:internal|<anonymous>/.test(l)).slice(0, 12).join('\n      ');
  for (const suite of report.testResults) {
    const file = path.relative(root, suite.name);
    const failed = suite.assertionResults.filter((a) => a.status === 'failed');
    for (const a of failed) console.error(`[test] FAILED ${file} › ${a.fullName}\n      ${brief(a.failureMessages.join('\n'))}`);
    if (!failed.length && suite.status === 'failed') console.error(`[test] FAILED ${file}\n      ${brief(suite.message ?? '')}`);
  }
};
/** Runs jest with a JSON report beside the usual output and adds its counts to the totals. */
const jestStep = (label, args) => {
  fs.mkdirSync(artifacts, { recursive: true });
  const report = path.join(artifacts, `${label.replace(/\W+/g, '-').replace(/-+$/, '')}.json`);
  fs.rmSync(report, { force: true });
  const status = step(label, process.execPath, [jest, ...args, '--json', `--outputFile=${report}`]);
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    totals.passed += r.numPassedTests;
    totals.failed += r.numFailedTests + r.numRuntimeErrorTestSuites;
    totals.skipped += r.numPendingTests + r.numTodoTests;
    recapFailures(r);
  } else if (status !== 0) {
    totals.failed += 1; // jest died before it could report: count the run itself as a failure
  }
  if (status !== 0) {
    console.error(`[test] ${label} failed`);
    summary();
    process.exit(status);
  }
};

mustPass('install and build', process.execPath, [path.join(root, 'scripts', 'bootstrap.mjs')]);
mustPass('type-check tests', process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']);
// The example React Native app type-checks against the real bridge packages and the built @wellstream/mobile.
mustPass('type-check the mobile example', process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join('examples', 'mobile-app', 'tsconfig.json')]);
const jest = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js');
const extra = process.argv.slice(2);
// A path names the tests to run; a jest option's value (`-t <name>`) is not a path on disk.
const paths = extra.filter((a) => !a.startsWith('-') && fs.existsSync(path.resolve(root, a)));
if (extra.includes('--selectProjects')) {
  jestStep('jest', ['--maxWorkers=2', ...extra]);
} else if (paths.length) {
  jestStep('jest', ['--maxWorkers=2', ...extra, '--selectProjects', 'unit', 'component', 'integration', 'faults', 'containers']);
} else {
  jestStep('jest', ['--maxWorkers=2', ...extra, '--selectProjects', 'unit', 'component', 'integration']);
  jestStep('jest (faults)', ['--maxWorkers=1', '--passWithNoTests', ...extra, '--selectProjects', 'faults']);
  // Last and alone: images built with podman, the platform in containers (docs/deployment.md).
  jestStep('jest (containers)', ['--maxWorkers=1', ...extra, '--selectProjects', 'containers']);
}
summary();
