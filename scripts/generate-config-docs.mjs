#!/usr/bin/env node
/**
 * Writes docs/configuration.md from the deployables' config schemas (platform/src/config-reference.ts).
 * Reads the built code: run `npm run build` first (test/configuration-doc.test.ts fails when the
 * committed document and the schemas disagree, and names this command).
 *   node scripts/generate-config-docs.mjs
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { configReference } = require(path.join(root, 'platform', 'dist', 'config-reference.js'));
const target = path.join(root, 'docs', 'configuration.md');
fs.writeFileSync(target, configReference());
console.log(`wrote ${path.relative(root, target)}`);
