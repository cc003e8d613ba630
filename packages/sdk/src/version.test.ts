import fs from 'node:fs';
import path from 'node:path';
import { SDK_VERSION } from './version';

it('is the version in package.json', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  expect(SDK_VERSION).toBe(pkg.version);
});
