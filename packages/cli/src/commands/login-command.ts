/** `wellstream login`: checks the base URL and token against the server, then saves them (0600) in the profile in use. */
import { Wellstream } from '@wellstream/sdk';
import { CliFailure, CliIo, EXIT_USAGE } from '../cli-io';
import { ConfigStore, DEFAULT_PROFILE } from '../config-store';
import { printJson } from '../output';
import { GlobalFlags, profileOf } from '../session';

export async function login(io: CliIo, flags: GlobalFlags): Promise<void> {
  const store = new ConfigStore(io.env);
  const profile = profileOf(store, flags);
  const saved = store.readLogin(profile);
  const baseUrl = flags.baseUrl ?? io.env.WELLSTREAM_API_URL ?? saved?.base_url ?? 'http://127.0.0.1:8080/v2';
  const token = flags.token ?? io.env.WELLSTREAM_API_TOKEN;
  if (!token) throw new CliFailure('login needs --token <developer token> (or WELLSTREAM_API_TOKEN)', EXIT_USAGE);
  const client = new Wellstream({ baseUrl, token, retry: { maxRetries: 1 } });
  // Any call the token may make proves it; the stream list is one every developer token may read.
  const streams = await client.streams.list();
  if (flags.org) await client.users.list(flags.org, { limit: 1 });
  const login = { ...saved, base_url: baseUrl, token, organization_id: flags.org ?? (saved?.base_url === baseUrl ? saved?.organization_id : undefined) };
  store.saveLogin(profile, login);
  const rateLimit = streams.$response.rateLimit;
  if (flags.json) return printJson(io, { profile, base_url: baseUrl, organization_id: login.organization_id ?? null, config_file: store.loginFile, rate_limit: rateLimit });
  const named = profile === DEFAULT_PROFILE ? '' : ` as profile ${profile}`;
  io.stdout(`Logged in to ${baseUrl}${login.organization_id ? ` (organization ${login.organization_id})` : ''}${named}; saved to ${store.loginFile}\n`);
  if (rateLimit) io.stdout(`Rate limit: ${rateLimit.remaining} of ${rateLimit.limit} requests left this hour\n`);
}
