/**
 * The `wellstream` command line: commander parses, each command runs through the SDK, and every
 * outcome maps to an exit code scripts can trust (0 done, 1 failed, 2 wrong usage). Errors are
 * one line on stderr (with --json, a JSON object), never a stack trace.
 */
import { Argument, Command, CommanderError, Option } from 'commander';
import { ApiError, ConnectionError, ParameterError, WellstreamError } from '@wellstream/sdk';
import { CliFailure, CliIo, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './cli-io';
import { listen, replay, tail } from './commands/event-commands';
import { login } from './commands/login-command';
import { notificationsGet, notificationsList, notificationsRedeliver, pushTest, targetDelete, targetGet, targetSet } from './commands/push-commands';
import { ingestFile } from './commands/ingest-command';
import { records, streamsCreate, streamsDelete, streamsGet, streamsList, usersCreate, usersDelete, usersGet, usersList, usersUpdate, whoami } from './commands/rest-commands';
import { completionScript, Shell, SHELLS } from './completion';
import { logout, profilesList, profilesRemove, profilesUse } from './commands/profile-commands';
import { rulesCreate, rulesDelete, rulesGet, rulesList, rulesUpdate } from './commands/rule-commands';
import { GlobalFlags, openSession, Session } from './session';
import { CLI_VERSION } from './version';

function build(io: CliIo, run: (task: () => Promise<void>) => void): Command {
  const program = new Command('wellstream')
    .description('Wellstream from the command line: users, records, streams, and events forwarded to a local server.')
    .version(CLI_VERSION)
    .option('--base-url <url>', 'base_url, e.g. http://127.0.0.1:8080/v2 (default: the saved login)')
    .option('--token <token>', 'developer token (default: the saved login)')
    .option('--org <id>', 'organization id (default: the saved login)')
    .option('--profile <name>', 'the saved login to use (default: WELLSTREAM_PROFILE, else the one `profiles use` chose, else "default")')
    .option('--json', 'machine-readable output')
    .option('--wide', 'tables show every cell whole')
    .option('--no-retry', 'do not retry 429/503 answers')
    .showHelpAfterError('(run wellstream --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  const flags = (): GlobalFlags => program.opts<GlobalFlags>();
  const withSession = (fn: (s: Session, ...args: any[]) => Promise<void>) => (...args: any[]) => run(() => fn(openSession(io, flags()), ...args.slice(0, -1)));
  const inherit = (cmd: Command) => cmd.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr }).showHelpAfterError();

  inherit(program.command('login'))
    .description('check and save the base URL, token and default organization in a profile (config directory, mode 0600; --profile, else "default")')
    .action(() => run(() => login(io, flags())));

  inherit(program.command('logout'))
    .description("forget the profile's saved login (the token with it)")
    .action(() => run(async () => logout(io, flags())));

  const profiles = inherit(program.command('profiles').description('saved logins, one per name (login --profile <name> saves one)'));
  inherit(profiles.command('list'))
    .description('every saved profile; * marks the one in use')
    .option('--names', 'only the names, one a line (what shell completion offers)')
    .action((o: { names?: boolean }) => run(async () => profilesList(io, flags(), o)));
  inherit(profiles.command('use').argument('<name>')).description('make a profile the default one').action((name: string) => run(async () => profilesUse(io, name, flags())));
  inherit(profiles.command('remove').argument('<name>')).description('forget a profile (its token with it)').action((name: string) => run(async () => profilesRemove(io, name, flags())));
  inherit(program.command('whoami')).description('the base URL, organization and token in use, checked against the server').action(withSession((s) => whoami(s)));

  const users = inherit(program.command('users').description("the organization's users"));
  inherit(users.command('list')).option('--limit <n>').option('--offset <n>').action(withSession((s, o) => usersList(s, o)));
  inherit(users.command('get').argument('<uid>')).action(withSession((s, uid) => usersGet(s, uid)));
  inherit(users.command('create').argument('<uid>'))
    .option('--timezone <olson>', 'e.g. Europe/Berlin')
    .option('--country <code>', 'ISO 3166-1 alpha-2')
    .action(withSession((s, uid, o) => usersCreate(s, uid, o)));
  inherit(users.command('update').argument('<uid>'))
    .option('--timezone <olson>', 'e.g. Europe/Berlin')
    .option('--country <code>', 'ISO 3166-1 alpha-2')
    .action(withSession((s, uid, o) => usersUpdate(s, uid, o)));
  inherit(users.command('delete').argument('<uid>')).action(withSession((s, uid) => usersDelete(s, uid)));

  inherit(program.command('records').argument('<type>', 'measurements, nutrition, sleep, summaries, workouts or intraday'))
    .description("a user's records of one type (at most 30 days)")
    .requiredOption('--user <uid>')
    .option('--from <date>', 'start date YYYY-MM-DD (default today, UTC)')
    .option('--to <date>', 'end date YYYY-MM-DD (default today, UTC)')
    .option('--source <types>', 'source type(s), comma-separated')
    .action(withSession((s, type, o) => records(s, type, o)));

  inherit(program.command('ingest').argument('<file>', 'JSON: {"records":[…]} or an array of records; or NDJSON, one record a line'))
    .description("post a user's records from a file, as the mobile solution does (in requests of at most 1,000)")
    .requiredOption('--user <uid>')
    .action(withSession((s, file, o) => ingestFile(s, file, o)));

  const streams = inherit(program.command('streams').description("the customer's streams"));
  inherit(streams.command('list')).action(withSession((s) => streamsList(s)));
  inherit(streams.command('get').argument('<stream>', 'stream id or name')).action(withSession(async (s, id) => streamsGet(s, await s.streamId(id))));
  inherit(streams.command('create').argument('<name>'))
    .option('--resources <list>', 'resource filter, e.g. sleep,workout')
    .option('--event-types <list>', 'event type filter, e.g. data,connection')
    .option('--start-date <date>')
    .action(withSession((s, name, o) => streamsCreate(s, name, o)));
  inherit(streams.command('delete').argument('<stream>', 'stream id or name')).action(withSession(async (s, id) => streamsDelete(s, await s.streamId(id))));

  inherit(program.command('listen').argument('<stream>', 'stream id or name'))
    .description('join a stream and post each record to a local URL exactly as production push does, trying each until it is accepted (resumes after the last one delivered)')
    .option('--forward-to <url>', 'POST each record here as a push batch, e.g. http://localhost:3000/hook')
    .option('--secret <secret>', 'signing secret (default: WELLSTREAM_FORWARD_SECRET, else one generated and saved)')
    .option('--timeout <seconds>', 'per delivery try (default 10)')
    .option('--from-start', 'ignore the saved position')
    .action(withSession(async (s, id, o) => listen(s, await s.streamId(id), o)));

  inherit(program.command('replay'))
    .description("the customer's last 30 days of events, then live ones; printed or forwarded")
    .option('--since <date>', 'events processed on or after YYYY-MM-DD')
    .option('--resources <list>', 'e.g. sleep,measurement')
    .option('--event-types <list>', 'e.g. data,connection')
    .option('--forward-to <url>', 'POST each record here as a push batch, tried until accepted')
    .option('--secret <secret>', 'signing secret')
    .option('--timeout <seconds>', 'per delivery try (default 10)')
    .addOption(new Option('--until-caught-up', 'exit once the history has been handled'))
    .action(withSession((_s, o) => replay(_s, o)));

  inherit(program.command('tail').argument('<stream>', 'stream id or name'))
    .description("watch a stream read-only and pretty-print its events (takes none from the stream's clients)")
    .option('--pokes', 'show heartbeats too')
    .action(withSession(async (s, id, o) => tail(s, await s.streamId(id), o)));

  const push = inherit(program.command('push').description('push receivers'));
  inherit(push.command('test').argument('<url>', "your receiver's URL"))
    .description('POST a signed sample batch to a URL exactly as production push does, once, and print the answer')
    .option('--secret <secret>', 'the secret your receiver verifies with (default: WELLSTREAM_FORWARD_SECRET)')
    .option('--timeout <seconds>', 'default 10')
    .action((url: string, o: { secret?: string; timeout?: string }) => run(() => pushTest(io, url, { ...o, json: flags().json })));

  const notifications = inherit(program.command('notifications').description("the organization's push batches"));
  const target = inherit(notifications.command('target').description("the organization's push target"));
  inherit(target.command('get')).action(withSession((s) => targetGet(s)));
  inherit(target.command('set').argument('<url>'))
    .option('--secret <secret>', 'signing secret, at least 16 characters')
    .action(withSession((s, url, o) => targetSet(s, url, o)));
  inherit(target.command('delete')).action(withSession((s) => targetDelete(s)));
  inherit(notifications.command('list')).option('--status <status>', 'success or failure').action(withSession((s, o) => notificationsList(s, o)));
  inherit(notifications.command('get').argument('<batch>')).action(withSession((s, id) => notificationsGet(s, id)));
  inherit(notifications.command('redeliver').argument('<batch>'))
    .description('queue a batch for a new round of delivery tries')
    .action(withSession((s, id) => notificationsRedeliver(s, id)));

  const rules = inherit(program.command('rules').description("a user's adherence rules (the operator enables the feature per organization)"));
  const ruleFields = (cmd: Command) =>
    cmd
      .option('--type <type>', 'rule type (default user/missing_data, the only one)')
      .option('--window <duration>', 'ISO 8601 sliding window, e.g. P3D, PT12H')
      .option('--message <text>', 'text carried by the rule event')
      .option('--metric <type>', 'metric type, e.g. body_weight, steps')
      .option('--unit <unit>', 'one of the metric type\'s units (any: every unit)')
      .option('--origin <origin>', 'device, manual or unknown (any: every origin)')
      .option('--threshold <number>', 'threshold value')
      .option('--comparator <comparator>', 'less_than, greather_than (so spelled) or equal_to');
  inherit(rules.command('list')).requiredOption('--user <uid>').action(withSession((s, o) => rulesList(s, o)));
  inherit(rules.command('get').argument('<rule>', 'rule id')).requiredOption('--user <uid>').action(withSession((s, id, o) => rulesGet(s, id, o)));
  ruleFields(inherit(rules.command('create')).description('create a rule (every field but --unit, --origin and --type is required)').requiredOption('--user <uid>')).action(withSession((s, o) => rulesCreate(s, o)));
  ruleFields(inherit(rules.command('update').argument('<rule>', 'rule id')).description('change the fields given; the others keep their values').requiredOption('--user <uid>')).action(
    withSession((s, id, o) => rulesUpdate(s, id, o)),
  );
  inherit(rules.command('delete').argument('<rule>', 'rule id')).requiredOption('--user <uid>').action(withSession((s, id, o) => rulesDelete(s, id, o)));

  inherit(program.command('completion'))
    .description('print a shell completion script: eval "$(wellstream completion bash)", likewise zsh; fish: wellstream completion fish | source')
    .addArgument(new Argument('<shell>').choices(SHELLS))
    .action((shell: Shell) => run(async () => io.stdout(completionScript(shell, program))));

  return program;
}

/** The command tree as the CLI builds it (commands do nothing when called): what the completion scripts are written from. */
export function commandTree(io: CliIo): Command {
  return build(io, () => undefined);
}

/** Runs the CLI with `argv` (without node and the script); resolves with the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let task: (() => Promise<void>) | undefined;
  const program = build(io, (t) => (task = t));
  const json = argv.includes('--json');
  try {
    await program.parseAsync(argv, { from: 'user' });
    if (task) await task();
    return EXIT_OK;
  } catch (err) {
    return report(io, err, json);
  }
}

function report(io: CliIo, err: unknown, json: boolean): number {
  if (err instanceof CommanderError) {
    // Help and version are successes; everything else commander refuses is wrong usage (it printed why).
    return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help' ? EXIT_OK : EXIT_USAGE;
  }
  const line = (message: string, extra: Record<string, unknown> = {}) => io.stderr(json ? JSON.stringify({ error: { message, ...extra } }) + '\n' : `wellstream: ${message}\n`);
  if (err instanceof CliFailure) {
    line(err.message);
    return err.code;
  }
  if (err instanceof ApiError) {
    line(`${err.status} ${err.message.replace(/^\S+ \S+ answered \d+: /, '')}`, { status: err.status, body: err.body, request_id: err.requestId });
    return EXIT_FAILURE;
  }
  if (err instanceof ConnectionError) {
    line(`cannot reach the server: ${err.message}`);
    return EXIT_FAILURE;
  }
  if (err instanceof ParameterError) {
    line(err.message);
    return EXIT_USAGE;
  }
  if (err instanceof WellstreamError) {
    line(err.message);
    return EXIT_FAILURE;
  }
  if ((err as Error)?.name === 'AbortError' || io.signal?.aborted) return EXIT_OK;
  line(`unexpected error: ${(err as Error)?.message ?? String(err)}`);
  return EXIT_FAILURE;
}
