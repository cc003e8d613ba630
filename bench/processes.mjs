/**
 * Starts deployables as child processes for benchmarks (so the load generator does not share
 * their event loop), waits until they answer, and kills them on stop or exit.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
});

export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** `nodeArgs` e.g. ['--cpu-prof'] to profile one process (not allowed in NODE_OPTIONS). */
export async function startProcess(script, env, readyUrl, okStatuses = [200], nodeArgs = [], timeoutMs = 60_000) {
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, script)], {
    env: { ...process.env, WELLSTREAM_LOG_LEVEL: 'silent', ...env },
    // BENCH_PLATFORM_STDOUT=inherit shows what node itself prints there (--trace-gc, for one).
    stdio: ['ignore', process.env.BENCH_PLATFORM_STDOUT === 'inherit' ? 'inherit' : 'ignore', 'inherit'],
  });
  children.add(child);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(readyUrl);
      if (okStatuses.includes(res.status)) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`${script} did not become ready at ${readyUrl}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        // A second stop (a bench's finally after its own stop) must not wait for an exit that came already.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }).then(() => children.delete(child)),
  };
}
