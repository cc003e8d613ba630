/**
 * The CLI's saved login (base URL, token, default organization, the forwarding secret) and the
 * `Last-Event-ID` of each forwarded stream, in the user's config directory: $WELLSTREAM_CONFIG_DIR,
 * else $XDG_CONFIG_HOME/wellstream, %APPDATA%\wellstream on Windows, ~/Library/Application Support
 * on macOS, ~/.config/wellstream otherwise. The directory is 0700 and the files 0600 (they hold the
 * token), written whole through a rename so an interrupted write never leaves half a file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SavedLogin {
  base_url: string;
  token: string;
  organization_id?: string;
  /** Signs the events `listen`/`replay --forward-to` POST; generated on first use. */
  forward_secret?: string;
}

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.WELLSTREAM_CONFIG_DIR) return env.WELLSTREAM_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'wellstream');
  const home = env.HOME ?? os.homedir();
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'wellstream');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'wellstream');
  return path.join(home, '.config', 'wellstream');
}

function writePrivate(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 });
  fs.renameSync(tmp, file);
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file} is not readable JSON: ${(err as Error).message}`);
  }
}

export class ConfigStore {
  readonly dir: string;
  constructor(env: NodeJS.ProcessEnv) {
    this.dir = configDir(env);
  }

  get loginFile(): string {
    return path.join(this.dir, 'config.json');
  }

  readLogin(): SavedLogin | undefined {
    return readJson<SavedLogin>(this.loginFile);
  }

  saveLogin(login: SavedLogin): void {
    writePrivate(this.loginFile, login);
  }

  /** Removes the saved login (token included); true when there was one. Saved stream positions stay. */
  forgetLogin(): boolean {
    try {
      fs.unlinkSync(this.loginFile);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  private stateFile(baseUrl: string, key: string): string {
    const safe = `${baseUrl}|${key}`.replace(/[^A-Za-z0-9._-]+/g, '_');
    return path.join(this.dir, 'positions', `${safe}.json`);
  }

  /** The last event id forwarded from `key` (a stream id, or `replay`) of this platform. */
  readPosition(baseUrl: string, key: string): string | undefined {
    return readJson<{ last_event_id?: string }>(this.stateFile(baseUrl, key))?.last_event_id;
  }

  savePosition(baseUrl: string, key: string, lastEventId: string): void {
    writePrivate(this.stateFile(baseUrl, key), { last_event_id: lastEventId, saved_at: new Date().toISOString() });
  }
}
