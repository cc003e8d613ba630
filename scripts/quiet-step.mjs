/**
 * Runs a set-up step (an install, a native build, a compile) with its output captured: the
 * terminal gets one line per step with its duration, the full output goes to a log file under
 * `.wellstream/logs/` (git-ignored), and a failure prints the step's name, the log's last lines,
 * where the whole log is and the command that retries just that step. A newcomer's first
 * `npm start` should read as progress, not as compiler noise; the noise is kept for when it helps.
 *
 * WELLSTREAM_VERBOSE=1 streams every step's output to the terminal as well (and still logs it).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const TAIL_LINES = 40;

/** Thrown once the failure has been printed; callers exit non-zero without printing more. */
export class StepFailed extends Error {
  constructor(label, why) {
    super(`${label} failed (${why})`);
  }
}

/** Where step logs go: `<root>/.wellstream/logs`, or WELLSTREAM_LOG_DIR. */
export function logDir(root) {
  const dir = process.env.WELLSTREAM_LOG_DIR || path.join(root, '.wellstream', 'logs');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** The last `n` lines of a file (the whole file is small enough to read: it is one step's output). */
export function tail(file, n = TAIL_LINES) {
  const lines = fs.readFileSync(file, 'utf8').replace(/\s+$/, '').split('\n');
  return lines.slice(-n).join('\n');
}

/**
 * Runs `cmd args` as the step `label`, logging to `<name>.log`. Resolves when it exits 0;
 * otherwise prints why and throws StepFailed. `retry` is the command a person runs to try this
 * step again (shown on failure).
 */
export async function runStep({ root, name, label, cmd, args, env = process.env, retry, prefix = '[wellstream]' }) {
  const file = path.join(logDir(root), `${name}.log`);
  const verbose = process.env.WELLSTREAM_VERBOSE === '1';
  const out = fs.openSync(file, 'w');
  fs.writeSync(out, `$ ${[cmd, ...args].join(' ')}\n# in ${root}, ${new Date().toISOString()}\n\n`);
  const started = Date.now();
  process.stdout.write(`${prefix} ${label} …`);
  const status = await new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const take = (chunk) => {
      fs.writeSync(out, chunk);
      if (verbose) process.stderr.write(chunk);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (err) => {
      take(`\n${err.message}\n`);
      resolve(err.code === 'ENOENT' ? `${cmd} not found` : err.message);
    });
    child.on('close', (code, signal) => resolve(code === 0 ? 0 : code !== null ? `exit ${code}` : `signal ${signal}`));
  });
  fs.closeSync(out);
  const took = seconds(Date.now() - started);
  if (status === 0) {
    process.stdout.write(` done (${took})\n`);
    return;
  }
  process.stdout.write(` FAILED (${took})\n`);
  const shown = path.relative(process.cwd(), file) || file;
  console.error(
    [
      '',
      `${prefix} step "${label}" failed: ${status}`,
      `${prefix} last lines of its log:`,
      tail(file).replace(/^/gm, '  | '),
      `${prefix} whole log: ${shown}`,
      ...(retry ? [`${prefix} retry this step: ${retry}`] : []),
      '',
    ].join('\n'),
  );
  throw new StepFailed(label, status);
}
