/**
 * Loads a TypeScript module the build leaves out (the provider simulators) from a plain Node script,
 * compiling it on load with swc exactly as the test runner does. For the demo and the benchmarks.
 */
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const swc = require('@swc/core');

if (!Module._extensions['.ts']) {
  Module._extensions['.ts'] = (mod, filename) => {
    const { code } = swc.transformSync(fs.readFileSync(filename, 'utf8'), { filename, jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } });
    mod._compile(code, filename);
  };
}

export const requireTs = (file) => require(file);
