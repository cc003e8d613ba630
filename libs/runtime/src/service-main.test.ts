/**
 * What a distributed main.ts does at the edges, run as real processes (the built dist, as in a
 * container): a config error prints the message alone and exits 1; SIGTERM stops the service and
 * exits 0; a stop that hangs is cut off after WELLSTREAM_STOP_TIMEOUT_MS with exit 1.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const SERVICE_MAIN = path.join(ROOT, 'libs/runtime/dist/service-main.js');

function runMain(script: string, env: NodeJS.ProcessEnv = {}, signalAfterReady = false): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', script], { env: { PATH: process.env.PATH, WELLSTREAM_LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let signalledAt = Date.now();
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (signalAfterReady && stdout.includes('service ready') && !child.killed) {
        signalledAt = Date.now();
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - signalledAt });
    });
  });
}

/** A service that keeps the process alive (as its HTTP server would) until its stop clears `alive`. */
const service = (stop: string) =>
  `const alive = setInterval(() => undefined, 1000);
   require(${JSON.stringify(SERVICE_MAIN)}).runServiceMain('probe', async () => ({ name: 'probe', url: 'http://127.0.0.1:1', port: 1, stop: ${stop} }));`;

it('a config error thrown while composing: exit 1, the message on stderr, no stack trace', async () => {
  const script = `const { ConfigError } = require(${JSON.stringify(path.join(ROOT, 'libs/config/dist'))});
    require(${JSON.stringify(SERVICE_MAIN)}).runServiceMain('probe', () => { throw new ConfigError(['WELLSTREAM_X'], 'Invalid configuration:\\n  WELLSTREAM_X: WELLSTREAM_X is required'); });`;
  const r = await runMain(script);
  expect(r.code).toBe(1);
  expect(r.stderr).toBe('[probe] Invalid configuration:\n  WELLSTREAM_X: WELLSTREAM_X is required\n');
});

it('SIGTERM: stops the service and exits 0', async () => {
  const r = await runMain(service('() => new Promise((r) => setTimeout(() => { clearInterval(alive); r(); }, 200))'), {}, true);
  expect([r.code, r.stderr]).toEqual([0, ""]);
  expect(r.stdout).toMatch(/"message":"stopped"/);
});

it('a stop that hangs: exits 1 after WELLSTREAM_STOP_TIMEOUT_MS, saying so', async () => {
  const r = await runMain(service('() => new Promise(() => undefined)'), { WELLSTREAM_STOP_TIMEOUT_MS: '500' }, true);
  expect(r.code).toBe(1);
  expect(r.ms).toBeGreaterThanOrEqual(450);
  expect(r.ms).toBeLessThan(5_000);
  expect(r.stdout + r.stderr).toMatch(/stop did not finish in time/);
});
