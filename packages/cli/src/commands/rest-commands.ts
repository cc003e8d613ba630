/** users, records and streams: one SDK call each, printed as a table or, with --json, as the body. */
import { RECORD_TYPES, RecordType } from '@wellstream/sdk';
import { CliFailure, EXIT_USAGE } from '../cli-io';
import { printJson, printTable } from '../output';
import type { Session } from '../session';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function show(s: Session, value: unknown, rows: () => Record<string, unknown>[], columns: string[]): void {
  if (s.json) printJson(s.io, value);
  else printTable(s.io, rows(), columns, s.wide);
}

export async function usersList(s: Session, flags: { limit?: string; offset?: string }): Promise<void> {
  const page = await s.client.users.list(s.organization(), { limit: flags.limit ? Number(flags.limit) : undefined, offset: flags.offset ? Number(flags.offset) : undefined });
  show(s, page, () => page.data as never, ['uid', 'id', 'status', 'location.timezone', 'created_at']);
  if (!s.json) s.io.stdout(`${page.data.length} of ${page.meta.total} users\n`);
}

export async function usersGet(s: Session, uid: string): Promise<void> {
  const user = await s.client.users.get(s.organization(), uid);
  show(s, user, () => [user as never], ['uid', 'id', 'location.timezone', 'sources', 'marketplace.url']);
}

export async function usersCreate(s: Session, uid: string, flags: { timezone?: string; country?: string }): Promise<void> {
  const user = await s.client.users.create(s.organization(), { uid, ...(flags.timezone || flags.country ? { location: { timezone: flags.timezone ?? null, country_code: flags.country ?? null } } : {}) } as never);
  show(s, user, () => [user as never], ['uid', 'id', 'location.timezone', 'marketplace.url']);
}

export async function usersUpdate(s: Session, uid: string, flags: { timezone?: string; country?: string }): Promise<void> {
  if (flags.timezone === undefined && flags.country === undefined) throw new CliFailure('users update needs --timezone and/or --country', EXIT_USAGE);
  const current = await s.client.users.get(s.organization(), uid);
  const location = { timezone: flags.timezone ?? current.location.timezone, country_code: flags.country ?? current.location.country_code };
  const user = await s.client.users.update(s.organization(), uid, { location } as never);
  show(s, user, () => [user as never], ['uid', 'id', 'location.timezone', 'location.country_code']);
}

export async function usersDelete(s: Session, uid: string): Promise<void> {
  const user = await s.client.users.delete(s.organization(), uid);
  if (s.json) printJson(s.io, user);
  else s.io.stdout(`deleted user ${user.uid} (${user.id}); the data is kept, never served, for the retention period\n`);
}

export async function streamsGet(s: Session, id: string): Promise<void> {
  const stream = await s.client.streams.get(id);
  show(s, stream, () => [stream as never], ['id', 'name', 'members', 'resource_filter', 'event_type_filter', 'start_date', 'created_at']);
}

/** Who the saved login (or the flags) is: checked against the server, the token shown by its prefix only. */
export async function whoami(s: Session): Promise<void> {
  const answer = await s.client.streams.list();
  const who = { base_url: s.client.baseUrl, organization_id: s.login.organization_id ?? null, token: `${s.login.token.slice(0, 12)}…`, rate_limit: answer.$response.rateLimit };
  if (s.json) return printJson(s.io, who);
  s.io.stdout(`${who.base_url}\norganization ${who.organization_id ?? '(none; pass --org)'}\ntoken ${who.token}\n`);
  if (who.rate_limit) s.io.stdout(`${who.rate_limit.remaining} of ${who.rate_limit.limit} requests left this hour\n`);
}

export async function records(s: Session, type: string, flags: { user?: string; from?: string; to?: string; source?: string }): Promise<void> {
  if (!RECORD_TYPES.includes(type as RecordType)) throw new CliFailure(`unknown record type "${type}": one of ${RECORD_TYPES.join(', ')}`, EXIT_USAGE);
  if (!flags.user) throw new CliFailure('records needs --user <uid>', EXIT_USAGE);
  for (const [name, v] of [['--from', flags.from], ['--to', flags.to]] as const) if (v !== undefined && !DATE.test(v)) throw new CliFailure(`${name} must be a date YYYY-MM-DD, got "${v}"`, EXIT_USAGE);
  const page = await s.client.records.list(s.organization(), flags.user, type as RecordType, { start_date: flags.from, end_date: flags.to, source: flags.source });
  const data = (page as { data: Record<string, unknown>[] }).data;
  show(s, page, () => data.map((r) => ({ ...r, metrics: Array.isArray(r.metrics) ? r.metrics.map((m: any) => `${m.type}=${m.value}`).join(' ') : '' })), ['id', 'type', 'source.type', 'start_time', 'metrics']);
  if (!s.json) s.io.stdout(`${data.length} ${type}\n`);
}

export async function streamsList(s: Session): Promise<void> {
  const page = await s.client.streams.list();
  show(s, page, () => page.streams as never, ['id', 'name', 'members', 'resource_filter', 'event_type_filter', 'created_at']);
}

export async function streamsCreate(s: Session, name: string, flags: { resources?: string; eventTypes?: string; startDate?: string }): Promise<void> {
  const list = (v?: string) => (v ? v.split(',').map((x) => x.trim()).filter(Boolean) : undefined);
  const stream = await s.client.streams.create({ name, resource_filter: list(flags.resources), event_type_filter: list(flags.eventTypes), start_date: flags.startDate } as never);
  show(s, stream, () => [stream as never], ['id', 'name', 'group', 'resource_filter', 'event_type_filter']);
}

export async function streamsDelete(s: Session, id: string): Promise<void> {
  const stream = await s.client.streams.delete(id);
  if (s.json) printJson(s.io, stream);
  else s.io.stdout(`deleted stream ${stream.id} (${stream.name})\n`);
}
