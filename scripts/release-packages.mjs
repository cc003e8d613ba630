#!/usr/bin/env node
/**
 * Makes the SDK's and the CLI's tarballs with plain npm, optionally at a new version:
 *
 *   node scripts/release-packages.mjs [--version 0.2.0] [--out dist-packages]
 *
 * --version writes the version into both package.json files and both src/version.ts (the SDK's
 * User-Agent and `wellstream --version` read it there) and adds a CHANGELOG heading to fill in.
 * Each package's prepack installs and builds the workspace, so this runs from a fresh clone.
 * It publishes nothing: it prints the `npm publish` commands to run once the scope is yours.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const out = path.resolve(flag('--out') ?? path.join(root, 'dist-packages'));
const version = flag('--version');
const packages = [
  { dir: 'packages/sdk', versionFile: 'src/version.ts', constant: 'SDK_VERSION' },
  { dir: 'packages/cli', versionFile: 'src/version.ts', constant: 'CLI_VERSION' },
];

if (version !== undefined) {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) throw new Error(`--version ${version}: not a semantic version`);
  for (const p of packages) {
    const manifest = path.join(root, p.dir, 'package.json');
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    pkg.version = version;
    fs.writeFileSync(manifest, JSON.stringify(pkg, null, 2) + '\n');
    const file = path.join(root, p.dir, p.versionFile);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(new RegExp(`${p.constant} = '[^']*'`), `${p.constant} = '${version}'`));
    const changelog = path.join(root, p.dir, 'CHANGELOG.md');
    const text = fs.readFileSync(changelog, 'utf8');
    if (!text.includes(`## ${version}`)) fs.writeFileSync(changelog, text.replace(/\n## /, `\n## ${version}\n\n- (describe the changes)\n\n## `));
  }
}

fs.mkdirSync(out, { recursive: true });
const tarballs = [];
for (const p of packages) {
  const answer = execFileSync('npm', ['pack', '--json', '--pack-destination', out], { cwd: path.join(root, p.dir), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const [{ filename }] = JSON.parse(answer.slice(answer.indexOf('[')));
  tarballs.push(path.join(out, filename));
}
console.log(tarballs.join('\n'));
console.error(`\nInstall: npm install ${tarballs.map((t) => path.relative(process.cwd(), t)).join(' ')}`);
console.error(`Publish (once the @wellstream scope on the registry is yours): ${tarballs.map((t) => `npm publish ${path.relative(process.cwd(), t)} --access public`).join(' && ')}`);
