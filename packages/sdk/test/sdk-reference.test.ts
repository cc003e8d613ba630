/**
 * The committed SDK reference (docs/sdk-reference, typedoc) is what the package's build writes from
 * the sources now: the build's docs step (scripts/build.mjs, which `npm run build` runs) writes it
 * twice into temporary folders; both must be equal (the output is deterministic) and equal the
 * committed one, no file missing or left over. After a change: `cd packages/sdk && npm run build`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

jest.setTimeout(120_000);
const sdk = path.resolve(__dirname, '..');
const committed = path.resolve(sdk, '../../docs/sdk-reference');

const files = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)).map((f) => `${e.name}/${f}`) : [e.name])).sort();

const build = async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-reference-'));
  await promisify(execFile)(process.execPath, [path.join(sdk, 'scripts/build.mjs'), '--docs-only', '--docs-out', out], { cwd: sdk, timeout: 55_000 });
  return out;
};
const differing = (a: string, b: string) => files(a).filter((f) => fs.readFileSync(path.join(a, f), 'utf8') !== fs.readFileSync(path.join(b, f), 'utf8'));

it("equals what the package's build writes from the sources now, the same on every run", async () => {
  const out = await build();
  const again = await build();
  expect(files(again)).toEqual(files(out));
  expect(differing(out, again)).toEqual([]);
  expect(files(committed)).toEqual(files(out));
  expect({ stale: differing(out, committed), fix: 'cd packages/sdk && npm run build' }).toEqual({ stale: [], fix: expect.any(String) });
});
