/**
 * docs/configuration.md is generated from the config schemas; it must be the document the schemas
 * give today, and must name every variable the code reads, in a schema or straight from the
 * environment (process.env.X in the deployables and the set-up scripts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describeSchemas } from '@wellstream/config';
import { configReference, DEPLOYABLES } from '@wellstream/platform';

const ROOT = path.resolve(__dirname, '..');
const DOC = path.join(ROOT, 'docs', 'configuration.md');
const REGENERATE = 'npm run build && node scripts/generate-config-docs.mjs';

/** What the deployables and the set-up scripts read from the environment, by name. */
function variablesReadFromEnvironment(): Map<string, string> {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'libs', 'gateway/src', 'edge/src', 'services', 'platform/src', 'scripts', 'deploy/docker'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\.(ts|js|mjs|cjs)$/.test(f))
    .filter((f) => !/\.(test|suite)\.ts$/.test(f) && !f.startsWith('libs/testing/') && !/\/(test|bench)\//.test(f) && !f.includes('/dist/'))
    .filter((f) => f.startsWith('libs/') ? f.includes('/src/') : true)
    .filter((f) => fs.existsSync(path.join(ROOT, f)));
  const found = new Map<string, string>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/\benv(?:\.|\[\s*['"`])(WELLSTREAM_[A-Z0-9_]+)\b/g)) if (!found.has(m[1])) found.set(m[1], file);
  }
  return found;
}

const documented = (doc: string) => new Set([...doc.matchAll(/^\| `(WELLSTREAM_[A-Z0-9_]+)` \|/gm)].map((m) => m[1]));

it('the committed docs/configuration.md is what the config schemas give', () => {
  const committed = fs.readFileSync(DOC, 'utf8');
  if (committed !== configReference()) throw new Error(`docs/configuration.md differs from the config schemas: run \`${REGENERATE}\``);
});

it('every key of every config schema is documented', () => {
  const listed = documented(fs.readFileSync(DOC, 'utf8'));
  const missing = [...describeSchemas(DEPLOYABLES).keys()].filter((k) => !listed.has(k));
  expect(missing).toEqual([]);
});

it('every variable the code reads from the environment is documented', () => {
  const listed = documented(fs.readFileSync(DOC, 'utf8'));
  const read = variablesReadFromEnvironment();
  // The scan itself must see the reads we know of, or it would pass on nothing.
  expect([...read.keys()]).toEqual(expect.arrayContaining(['WELLSTREAM_STOP_TIMEOUT_MS', 'WELLSTREAM_VERBOSE', 'WELLSTREAM_EDGE_UPSTREAMS']));
  const missing = [...read].filter(([name]) => !listed.has(name)).map(([name, file]) => `${name} (${file})`);
  expect(missing).toEqual([]);
});
