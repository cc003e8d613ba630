/**
 * The committed SDK reference (docs/sdk-reference, typedoc) is what the sources say now: typedoc
 * writes it again into a temporary folder and every file must equal the committed one, none
 * missing or left over. After a change: `cd packages/sdk && node node_modules/typedoc/bin/typedoc`.
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

it('equals what typedoc writes from the sources now', async () => {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sdk-reference-'));
  await promisify(execFile)(process.execPath, [path.join(sdk, 'node_modules/typedoc/bin/typedoc'), '--out', out, '--logLevel', 'Error'], { cwd: sdk, timeout: 110_000 });
  const fresh = files(out);
  expect(files(committed)).toEqual(fresh);
  const stale = fresh.filter((f) => fs.readFileSync(path.join(out, f), 'utf8') !== fs.readFileSync(path.join(committed, f), 'utf8'));
  expect({ stale, fix: 'cd packages/sdk && node node_modules/typedoc/bin/typedoc' }).toEqual({ stale: [], fix: expect.any(String) });
});
