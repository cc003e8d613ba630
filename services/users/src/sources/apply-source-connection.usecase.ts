/**
 * A connection changed in the sources service, which owns a user's sources of every kind (the
 * providers, the demo source, the phone apps): the user's `sources` entry follows it, one way,
 * and the customer hears what they must know as a `connection` event:
 * - connected / reconnected: the entry is added or replaced; `connected` / `reconnected`.
 * - disconnected: the entry is removed; `disconnected` (with the reason).
 * - auth_expired: the entry's status becomes auth_expired; `auth_expired` (with the reason).
 * - backfill_completed: the entry is updated; `backfill_completed` with the resource and range.
 * - backfill_progress, synced, status: the entry is updated; no customer event.
 * Every event carries the connection's whole state, so an entry is simply replaced by it. The
 * topic is ordered per user and delivered at least once: an event not newer than the last one
 * applied for that source changes nothing and emits nothing, except a disconnect of the entry's
 * own connection (endsCurrent). Only a user who has the entry gets anything but
 * connected/reconnected; deleted, unknown and other organizations' users are ignored.
 */
import type { SourceConnectionEvent } from '@wellstream/contracts';
import type { UsersDeps } from '../users/users.deps';
import type { ConnectedSource } from '../users/user';
import { withRetry } from '../users/user.repository';
import type { ConnectionDetails } from '../users/user-events';

export type SourceConnectionOutcome =
  /** Entry changed, with a customer event. */
  | 'notified'
  /** Entry changed, snapshot only. */
  | 'updated'
  /** Not newer than what was applied already. */
  | 'duplicate'
  /** The user has no entry for this source (only connected/reconnected add one). */
  | 'no_entry'
  /** The entry already holds exactly this state. */
  | 'unchanged'
  /** No such user (or deleted, or of another organization). */
  | 'no_user';

type Deps = Pick<UsersDeps, 'repo' | 'events' | 'clock'>;

export async function applySourceConnection(deps: Deps, event: SourceConnectionEvent): Promise<SourceConnectionOutcome> {
  return withRetry(async () => {
    const user = await deps.repo.findById(event.user_id);
    if (!user || user.status === 'deleted' || user.organization_id !== event.organization_id) return 'no_user';
    const type = event.source_type;
    const last = user.source_events_at?.[type];
    const current = user.sources.find((s) => s.type === type);
    if (last !== undefined && Date.parse(event.occurred_at) <= Date.parse(last) && !endsCurrent(event, current)) return 'duplicate';

    const entry = entryOf(event);
    const now = deps.clock.now().toISOString();
    const seen = { ...user.source_events_at, [type]: last !== undefined && last > event.occurred_at ? last : event.occurred_at };
    const change = (sources: ConnectedSource[]) => deps.repo.change(user, { sources, source_events_at: seen, updated_at: now });
    const replaced = () => user.sources.map((s) => (s.type === type ? entry : s));

    switch (event.action) {
      case 'connected':
      case 'reconnected':
        await deps.events.sourceChanged(change(current ? replaced() : [...user.sources, entry]), type, event.action, now);
        return 'notified';
      case 'disconnected':
        if (!current) return 'no_entry';
        await deps.events.sourceChanged(change(user.sources.filter((s) => s.type !== type)), type, 'disconnected', now, details(event, ['reason']));
        return 'notified';
      case 'auth_expired':
        if (!current) return 'no_entry';
        await deps.events.sourceChanged(change(replaced()), type, 'auth_expired', now, details(event, ['reason']));
        return 'notified';
      case 'backfill_completed':
        if (!current) return 'no_entry';
        await deps.events.sourceChanged(change(replaced()), type, 'backfill_completed', now, details(event, ['resource', 'range']));
        return 'notified';
      case 'backfill_progress':
      case 'synced':
      case 'status':
        if (!current) return 'no_entry';
        if (sameEntry(current, entry)) return 'unchanged';
        await deps.events.userChanged('source.updated', change(replaced()), type);
        return 'updated';
    }
  });
}

/**
 * A disconnect of the connection the entry holds (same connected_at: a reconnect keeps it, a new
 * connect has its own) ends it whatever the times say: two jobs of one connection stamp their
 * events when they start writing, so a sync's announcement can carry a later time than the
 * disconnect written after it, and dropping the disconnect as older would keep the entry for good.
 */
const endsCurrent = (e: SourceConnectionEvent, current: ConnectedSource | undefined): boolean =>
  e.action === 'disconnected' && current !== undefined && current.connected_at === e.connected_at;

/** The entry as the event states the connection (status, last sync, history import). */
function entryOf(e: SourceConnectionEvent): ConnectedSource {
  return {
    type: e.source_type,
    connected_at: e.connected_at,
    status: e.status,
    last_synced_at: e.last_synced_at,
    backfill: e.backfill ? { state: e.backfill.state, progress: e.backfill.progress, start: e.backfill.start, end: e.backfill.end } : null,
    ...(e.missing_permissions?.length ? { missing_permissions: [...e.missing_permissions] } : {}),
    ...(e.uploaded ? { uploaded: { resources: [...e.uploaded.resources], last_record_at: e.uploaded.last_record_at } } : {}),
  };
}

const sameBackfill = (a: ConnectedSource['backfill'], b: ConnectedSource['backfill']) =>
  !a || !b ? !a && !b : a.state === b.state && a.progress === b.progress && a.start === b.start && a.end === b.end;

const samePermissions = (a: ConnectedSource, b: ConnectedSource) => (a.missing_permissions ?? []).join(' ') === (b.missing_permissions ?? []).join(' ');

const sameEntry = (a: ConnectedSource, b: ConnectedSource) =>
  a.connected_at === b.connected_at && a.status === b.status && (a.last_synced_at ?? null) === (b.last_synced_at ?? null) && sameBackfill(a.backfill, b.backfill) && samePermissions(a, b) && JSON.stringify(a.uploaded ?? null) === JSON.stringify(b.uploaded ?? null);

function details(e: SourceConnectionEvent, keys: (keyof ConnectionDetails)[]): ConnectionDetails {
  const out: ConnectionDetails = {};
  if (keys.includes('reason') && e.reason !== undefined) out.reason = e.reason;
  if (keys.includes('resource') && e.resource !== undefined) out.resource = e.resource;
  if (keys.includes('range') && e.range !== undefined) out.range = { start: e.range.start, end: e.range.end };
  return out;
}
