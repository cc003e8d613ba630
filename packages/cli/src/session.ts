/**
 * The client a command talks through: base URL, token and organization from the flags, else the
 * environment (WELLSTREAM_API_URL, WELLSTREAM_API_TOKEN, WELLSTREAM_ORG), else the saved login of
 * the profile in use (--profile, WELLSTREAM_PROFILE, else the current one).
 */
import { Wellstream } from '@wellstream/sdk';
import { CliFailure, CliIo, EXIT_USAGE } from './cli-io';
import { ConfigStore, DEFAULT_PROFILE, isProfileName, SavedLogin } from './config-store';

export interface GlobalFlags {
  profile?: string;
  baseUrl?: string;
  token?: string;
  org?: string;
  json?: boolean;
  retry?: boolean;
  wide?: boolean;
}

export interface Session {
  client: Wellstream;
  login: SavedLogin;
  /** The profile whose saved login this session reads and (for the forwarding secret) writes. */
  profile: string;
  store: ConfigStore;
  json: boolean;
  /** Tables show every cell whole (--wide). */
  wide: boolean;
  io: CliIo;
  /** The organization for commands that need one; a usage error when none is known. */
  organization(): string;
  /** A stream given by name (names are unique per customer) or id; anything else goes on as an id, for the server's 404. */
  streamId(idOrName: string): Promise<string>;
}

export function openSession(io: CliIo, flags: GlobalFlags): Session {
  const store = new ConfigStore(io.env);
  const profile = profileOf(store, flags);
  const saved = store.readLogin(profile);
  const baseUrl = flags.baseUrl ?? io.env.WELLSTREAM_API_URL ?? saved?.base_url;
  const token = flags.token ?? io.env.WELLSTREAM_API_TOKEN ?? saved?.token;
  if (!baseUrl || !token) {
    const named = profile === DEFAULT_PROFILE ? '' : ` --profile ${profile}`;
    throw new CliFailure(`not logged in${named ? ` (profile ${profile})` : ''}: run \`wellstream login${named} --base-url <url> --token <token>\` (or pass --base-url and --token)`, EXIT_USAGE);
  }
  const login: SavedLogin = { ...saved, base_url: baseUrl, token, organization_id: flags.org ?? io.env.WELLSTREAM_ORG ?? saved?.organization_id };
  const client = new Wellstream({ baseUrl, token, retry: { enabled: flags.retry !== false } });
  return {
    client,
    login,
    profile,
    store,
    json: Boolean(flags.json),
    wide: Boolean(flags.wide),
    io,
    async streamId(idOrName: string) {
      const { streams } = await client.streams.list();
      return (streams.find((st) => st.id === idOrName) ?? streams.find((st) => st.name === idOrName))?.id ?? idOrName;
    },
    organization() {
      if (!login.organization_id) throw new CliFailure('no organization: pass --org <id> (or save one with `wellstream login --org <id>`)', EXIT_USAGE);
      return login.organization_id;
    },
  };
}

/** The profile in use, its name checked (a usage error otherwise). */
export function profileOf(store: ConfigStore, flags: GlobalFlags): string {
  const profile = store.profile(flags.profile);
  if (!isProfileName(profile)) throw new CliFailure(`profile name "${profile}" is not allowed: letters, digits, ".", "_" and "-", at most 64`, EXIT_USAGE);
  return profile;
}
