/**
 * The embedded runtime needs no configuration: without WELLSTREAM_SOURCE_TOKEN_KEY it keeps a
 * generated key in its data directory (readable by the owner only), so tokens stored in one run
 * open in the next.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function embeddedTokenKey(dataDir: string): string {
  const file = path.join(dataDir, 'sources-token.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(48).toString('base64url');
  try {
    fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    // Another process of the same data directory wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw err;
  }
}
