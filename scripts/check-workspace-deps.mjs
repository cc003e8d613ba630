#!/usr/bin/env node
/**
 * Lint: every `@wellstream/*` package a workspace's production code imports is listed in its
 * package.json. knip (also in lint) checks npm packages, but tsconfig's paths let it resolve these
 * to sources, so a missing one would pass there and fail only when the built code runs in its image.
 *   node scripts/check-workspace-deps.mjs
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TEST = /(\.test\.ts|\.suite\.ts|\.contract\.ts)$|\/test\//;
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*/src/*.ts', '*/*/src/*.ts'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !TEST.test(f) && fs.existsSync(path.join(root, f)));

const problems = [];
for (const file of files) {
  const dir = file.slice(0, file.indexOf('/src/'));
  const manifest = path.join(root, dir, 'package.json');
  if (!fs.existsSync(manifest)) continue;
  const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  const listed = new Set([pkg.name, ...Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies })]);
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*|require\(\s*|import\s+)['"](@wellstream\/[a-z0-9-]+)(?:\/[^'"]*)?['"]/g)) {
    if (!listed.has(m[1])) problems.push(`${file}: imports ${m[1]}, which ${dir}/package.json does not list`);
  }
}
if (problems.length) {
  console.error(`Workspace dependencies missing from package.json (${problems.length}):\n${[...new Set(problems)].join('\n')}`);
  process.exit(1);
}
