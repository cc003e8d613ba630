/**
 * The CLI's saved logins, one per named profile (base URL, token, default organization, the
 * forwarding secret), and the `Last-Event-ID` of each forwarded stream, in the user's config
 * directory: $WELLSTREAM_CONFIG_DIR, else $XDG_CONFIG_HOME/wellstream, %APPDATA%\wellstream on
 * Windows, ~/Library/Application Support on macOS, ~/.config/wellstream otherwise. The directory is
 * 0700 and the files 0600 (they hold tokens), written whole through a rename so an interrupted
 * write never leaves half a file.
 *
 * config.json is `{"current_profile": "<name>", "profiles": {"<name>": <login>}}`. A file of the
 * earlier single-login form (`{"base_url", "token", …}` at the top) is read as the profile
 * `default` and written in the new form on the next save.
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

export interface ConfigFile {
  current_profile?: string;
  profiles: Record<string, SavedLogin>;
}

export const DEFAULT_PROFILE = 'default';
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A profile name is a word of letters, digits, `.`, `_` and `-` (at most 64), so it is safe in any shell and file. */
export function isProfileName(name: string): boolean {
  return PROFILE_NAME.test(name);
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

/** The file's content in the current form, whichever form it was written in. */
export function migrateConfig(raw: unknown): ConfigFile {
  if (!raw || typeof raw !== 'object') return { profiles: {} };
  const value = raw as Record<string, unknown>;
  if (typeof value.base_url === 'string' && typeof value.token === 'string') return { current_profile: DEFAULT_PROFILE, profiles: { [DEFAULT_PROFILE]: value as unknown as SavedLogin } };
  const profiles = value.profiles && typeof value.profiles === 'object' ? (value.profiles as Record<string, SavedLogin>) : {};
  return { current_profile: typeof value.current_profile === 'string' ? value.current_profile : undefined, profiles: { ...profiles } };
}

export class ConfigStore {
  readonly dir: string;
  constructor(private readonly env: NodeJS.ProcessEnv) {
    this.dir = configDir(env);
  }

  get loginFile(): string {
    return path.join(this.dir, 'config.json');
  }

  read(): ConfigFile {
    return migrateConfig(readJson<unknown>(this.loginFile));
  }

  private write(config: ConfigFile): void {
    if (Object.keys(config.profiles).length === 0) {
      fs.rmSync(this.loginFile, { force: true });
      return;
    }
    writePrivate(this.loginFile, { current_profile: config.current_profile, profiles: config.profiles });
  }

  /** The profile a command uses: --profile, else $WELLSTREAM_PROFILE, else the one `profiles use` chose, else `default`. */
  profile(flag?: string): string {
    return flag ?? (this.env.WELLSTREAM_PROFILE || undefined) ?? this.read().current_profile ?? DEFAULT_PROFILE;
  }

  readLogin(profile: string): SavedLogin | undefined {
    return this.read().profiles[profile];
  }

  /** Saves the profile's login; the first profile saved becomes the current one. */
  saveLogin(profile: string, login: SavedLogin): void {
    const config = this.read();
    config.profiles[profile] = login;
    if (!config.current_profile || !config.profiles[config.current_profile]) config.current_profile = profile;
    this.write(config);
  }

  /** Removes the profile (token included); true when there was one. The file goes with the last profile; saved stream positions stay. */
  forgetLogin(profile: string): boolean {
    const config = this.read();
    if (!config.profiles[profile]) return false;
    delete config.profiles[profile];
    if (config.current_profile === profile) config.current_profile = undefined;
    this.write(config);
    return true;
  }

  /** Makes `profile` the one commands use by default; false when there is no such profile. */
  useProfile(profile: string): boolean {
    const config = this.read();
    if (!config.profiles[profile]) return false;
    config.current_profile = profile;
    this.write(config);
    return true;
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
