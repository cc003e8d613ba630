/**
 * What a newcomer sees on `npm start`: one line per set-up step with its time, then the banner
 * (at most about 15 lines before it), and, when a step fails, the step's name, the last lines of
 * its log, where the whole log is and the command that retries it. Runs on the installed and built
 * work tree (the install step is then skipped, as on any start after the first); each step's
 * failure is made on purpose with WELLSTREAM_BOOTSTRAP_SIMULATE_FAILURE (scripts/bootstrap.mjs).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const PROGRESS = /^\[wellstream\] .+ … done \(\d+\.\d s\)$/;

let logDir: string;
beforeAll(() => {
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-first-start-'));
});
afterAll(() => fs.rmSync(logDir, { recursive: true, force: true }));

const bootstrap = (env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'bootstrap.mjs')], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, WELLSTREAM_LOG_DIR: logDir, WELLSTREAM_VERBOSE: '', ...env },
    timeout: 300_000,
  });

it('prints one progress line per step, each with its time, and keeps the output in a log', () => {
  const r = bootstrap();
  expect(r.status).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines.length).toBeGreaterThanOrEqual(2);
  for (const line of lines) expect(line).toMatch(PROGRESS);
  expect(r.stderr).toBe('');
  expect(fs.readFileSync(path.join(logDir, 'build.log'), 'utf8')).toContain('tsc');
}, 300_000);

it.each([
  ['install', 'installing dependencies', 'npm exec --yes pnpm@'],
  ['sqlite', 'checking the SQLite addon', 'rebuild better-sqlite3'],
  ['build', 'building (TypeScript)', 'tsc -b tsconfig.build.json'],
])('names the failing step (%s), shows its log tail, where the log is and how to retry', (step, label, retry) => {
  const r = bootstrap({ WELLSTREAM_BOOTSTRAP_SIMULATE_FAILURE: step });
  expect(r.status).not.toBe(0);
  expect(r.stdout).toMatch(new RegExp(`${label.replace(/[()]/g, '\\$&')}.* … FAILED \\(\\d+\\.\\d s\\)`));
  expect(r.stderr).toContain(`step "${label}`);
  expect(r.stderr).toContain(`| simulated error: the ${step} step broke`);
  const logLine = /whole log: (.+)$/m.exec(r.stderr);
  expect(fs.readFileSync(path.resolve(ROOT, logLine![1]), 'utf8')).toContain(`simulated output of the ${step} step`);
  expect(r.stderr).toMatch(new RegExp(`retry this step: .*${retry.replace(/[.@-]/g, '\\$&')}`));
}, 300_000);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

it('npm start prints at most 15 lines before its banner', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wellstream-first-start-data-'));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env: { ...process.env, WELLSTREAM_LOG_DIR: logDir, WELLSTREAM_VERBOSE: '', WELLSTREAM_PORT: String(port), WELLSTREAM_DATA_DIR: dataDir, WELLSTREAM_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  try {
    const deadline = Date.now() + 120_000;
    while (!/^Ready: /m.test(out) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
    expect(out).toMatch(/^Ready: /m);
    const lines = out.split('\n');
    const banner = lines.findIndex((l) => l.includes('Wellstream is running'));
    const before = lines.slice(0, banner).filter((l) => l.trim() !== '');
    expect(before.length).toBeLessThanOrEqual(15);
    for (const line of before) expect(line).toMatch(PROGRESS);
  } finally {
    child.kill('SIGINT');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
