/** `wellstream profiles list|use|remove` and `logout`: the saved logins, one per profile. */
import { CliFailure, CliIo, EXIT_USAGE } from '../cli-io';
import { ConfigStore, DEFAULT_PROFILE } from '../config-store';
import { printJson, printTable } from '../output';
import { GlobalFlags, profileOf } from '../session';

export function profilesList(io: CliIo, flags: GlobalFlags, options: { names?: boolean } = {}): void {
  const store = new ConfigStore(io.env);
  const config = store.read();
  if (options.names) return io.stdout(Object.keys(config.profiles).sort().map((n) => `${n}\n`).join(''));
  const inUse = store.profile(flags.profile);
  const rows = Object.entries(config.profiles)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, login]) => ({ name, current: name === inUse, base_url: login.base_url, organization_id: login.organization_id ?? null, token: `${login.token.slice(0, 12)}…` }));
  if (flags.json) return printJson(io, { profiles: rows, in_use: inUse, config_file: store.loginFile });
  printTable(io, rows.map((r) => ({ ...r, current: r.current ? '*' : '' })), ['current', 'name', 'base_url', 'organization_id', 'token'], flags.wide);
}

export function profilesUse(io: CliIo, name: string, flags: GlobalFlags): void {
  const store = new ConfigStore(io.env);
  const profile = profileOf(store, { profile: name });
  if (!store.useProfile(profile)) throw new CliFailure(`no profile "${profile}": one of ${known(store)} (save one with \`wellstream login --profile ${profile} …\`)`, EXIT_USAGE);
  if (flags.json) return printJson(io, { current_profile: profile });
  io.stdout(`Using profile ${profile}\n`);
  if (io.env.WELLSTREAM_PROFILE && io.env.WELLSTREAM_PROFILE !== profile) io.stderr(`note: WELLSTREAM_PROFILE=${io.env.WELLSTREAM_PROFILE} still wins while it is set\n`);
}

export function profilesRemove(io: CliIo, name: string, flags: GlobalFlags): void {
  const store = new ConfigStore(io.env);
  const profile = profileOf(store, { profile: name });
  if (!store.forgetLogin(profile)) throw new CliFailure(`no profile "${profile}": one of ${known(store)}`, EXIT_USAGE);
  if (flags.json) return printJson(io, { removed: profile });
  io.stdout(`Removed profile ${profile} (its token with it)\n`);
}

/** Forgets the login of the profile in use; the config file goes with the last profile. */
export function logout(io: CliIo, flags: GlobalFlags): void {
  const store = new ConfigStore(io.env);
  const profile = profileOf(store, flags);
  const named = profile === DEFAULT_PROFILE ? '' : ` (profile ${profile})`;
  if (!store.forgetLogin(profile)) return io.stdout(`Not logged in${named}\n`);
  io.stdout(noneLeft(store) ? `Logged out${named}; removed ${store.loginFile}\n` : `Logged out${named}; the other profiles stay in ${store.loginFile}\n`);
}

const noneLeft = (store: ConfigStore) => Object.keys(store.read().profiles).length === 0;
const known = (store: ConfigStore) => Object.keys(store.read().profiles).sort().join(', ') || '(none saved)';
