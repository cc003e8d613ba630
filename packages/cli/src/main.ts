#!/usr/bin/env node
/** The `wellstream` executable: runs the CLI on this process's arguments; Ctrl-C ends long commands cleanly. */
import { runCli } from './program';

const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());

runCli(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  env: process.env,
  signal: stop.signal,
}).then((code) => {
  process.exitCode = code;
});
