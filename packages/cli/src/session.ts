/**
 * The client a command talks through: base URL, token and organization from the flags, else the
 * environment (WELLSTREAM_API_URL, WELLSTREAM_API_TOKEN, WELLSTREAM_ORG), else the saved login.
 */
import { Wellstream } from '@wellstream/sdk';
import { CliFailure, CliIo, EXIT_USAGE } from './cli-io';
import { ConfigStore, SavedLogin } from './config-store';

export interface GlobalFlags {
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
  const saved = store.readLogin();
  const baseUrl = flags.baseUrl ?? io.env.WELLSTREAM_API_URL ?? saved?.base_url;
  const token = flags.token ?? io.env.WELLSTREAM_API_TOKEN ?? saved?.token;
  if (!baseUrl || !token) throw new CliFailure('not logged in: run `wellstream login --base-url <url> --token <token>` (or pass --base-url and --token)', EXIT_USAGE);
  const login: SavedLogin = { ...saved, base_url: baseUrl, token, organization_id: flags.org ?? io.env.WELLSTREAM_ORG ?? saved?.organization_id };
  const client = new Wellstream({ baseUrl, token, retry: { enabled: flags.retry !== false } });
  return {
    client,
    login,
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
