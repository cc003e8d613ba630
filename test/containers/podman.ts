/**
 * podman and podman-compose as the container tests run them: with this project's settings
 * (deploy/containers/containers.conf), bounded in time, failing with their output.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(__dirname, '../..');
const CONTAINERS_CONF = path.join(ROOT, 'deploy/containers/containers.conf');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (or `timeoutMs`, then SIGKILL) and hands back its code and output. */
export function run(cmd: string, args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd: ROOT, env: { ...process.env, CONTAINERS_CONF, ...options.env }, timeout: options.timeoutMs ?? 120_000, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** Like run, but a non-zero exit is an error carrying the command's output. */
export async function must(cmd: string, args: string[], options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<string> {
  const r = await run(cmd, args, options);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${r.code}:\n${(r.stderr || r.stdout).slice(-3000)}`);
  return r.stdout;
}

export const podman = (args: string[], timeoutMs?: number) => must('podman', args, { timeoutMs });
