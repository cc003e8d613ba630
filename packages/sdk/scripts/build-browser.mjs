#!/usr/bin/env node
/**
 * The browser build: src/index.ts bundled by esbuild for platform=browser as one ES module
 * (dist/browser.mjs, eventsource-parser included). Node's built-in modules are marked unresolvable,
 * so an import of one anywhere in the SDK's graph fails this build (and the SDK's test that runs it).
 */
import { build } from 'esbuild';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = process.argv[2] ?? path.join(root, 'dist', 'browser.mjs');
const nodeOnly = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

await build({
  entryPoints: [path.join(root, 'src', 'index.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'no-node-builtins',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) =>
          nodeOnly.has(args.path) ? { errors: [{ text: `Node-only module "${args.path}" imported by ${path.relative(root, args.importer)}: the SDK must run in browsers` }] } : undefined,
        );
      },
    },
  ],
});
console.log(`wrote ${path.relative(process.cwd(), outfile)}`);
