#!/usr/bin/env node
/**
 * The published executable: src/main.ts with the SDK, commander and eventsource-parser bundled
 * into one CommonJS file (dist/wellstream.cjs) by esbuild. The CLI's tarball therefore has no
 * dependencies: it installs alone, globally or not, with nothing looked up on a registry, and the
 * SDK inside it is always the one it was built and tested with.
 */
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = process.argv[2] ?? path.join(root, 'dist', 'wellstream.cjs');

await build({
  entryPoints: [path.join(root, 'src', 'main.ts')],
  outfile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
console.log(`wrote ${path.relative(process.cwd(), outfile)}`);
