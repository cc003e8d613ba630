#!/usr/bin/env node
/**
 * Lint: source files must say why in their own words. A reference a reader of this repository cannot
 * follow (an issue number, a design document kept elsewhere) fails the check, naming file and line.
 *   node scripts/check-source-references.mjs
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.(ts|tsx|js|mjs|cjs|sh)$/;
const FORBIDDEN = [
  { pattern: /\bissues? #?\d+/i, why: 'cites an issue number: say the reason itself' },
  { pattern: /\bDESIGN\.md\b/, why: 'cites DESIGN.md, which is not in this repository: say what it says' },
];
// This file names the patterns it looks for.
const SELF = 'scripts/check-source-references.mjs';

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => SOURCE.test(f) && f !== SELF && fs.existsSync(path.join(root, f)));

const problems = [];
for (const file of files) {
  const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
  lines.forEach((line, i) => {
    for (const { pattern, why } of FORBIDDEN) if (pattern.test(line)) problems.push(`${file}:${i + 1}: ${why}\n    ${line.trim()}`);
  });
}
if (problems.length) {
  console.error(`Source references a reader cannot follow (${problems.length}):\n${problems.join('\n')}`);
  process.exit(1);
}
