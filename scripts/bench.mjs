#!/usr/bin/env node
/**
 * `npm run bench [name]`: runs every benchmark (bench/NAME.bench.mjs, services/SERVICE/bench/NAME.mjs) in turn (each prints its own figures).
 * Loopback only; every loop is bounded by a request count and a time limit.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv[2];
const files = [
  ...fs.readdirSync(path.join(root, 'bench')).filter((f) => f.endsWith('.bench.mjs')).map((f) => path.join('bench', f)),
  ...fs.readdirSync(path.join(root, 'services')).flatMap((s) => {
    const dir = path.join('services', s, 'bench');
    return fs.existsSync(path.join(root, dir)) ? fs.readdirSync(path.join(root, dir)).filter((f) => f.endsWith('.mjs')).map((f) => path.join(dir, f)) : [];
  }),
].filter((f) => !only || f.includes(only));
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f}`);
  const r = spawnSync(process.execPath, [path.join(root, f)], { stdio: 'inherit', env: { ...process.env, WELLSTREAM_LOG_LEVEL: 'silent' } });
  if (r.status !== 0) {
    failed++;
    console.log(`=== ${f} exited with ${r.status ?? r.signal}`);
  }
}
if (failed) console.log(`\n${failed} of ${files.length} benchmarks failed`);
process.exit(failed ? 1 : 0);
