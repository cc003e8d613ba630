/**
 * Records, progress and announcements of one sync step in one outbox write; the connection is
 * healthy again. Progress is never ahead of what was handed over (publish-records.ts).
 *
 * The step read the connection before its provider calls, and other jobs of the connection run
 * beside it (a live fetch beside a history page). So the announcement is made from the connection
 * as stored just before the write, with the step's own changes on top: made from the step's first
 * read, it would undo in the user's source entry what another job announced meanwhile (a missing
 * permission, a refused grant), since users keeps the latest announcement whole.
 *
 * If another job expired the connection (the provider refused its grant), nothing of the step
 * lands: making it active again would show the user connected with no job left to notice. Its
 * records are not lost: progress did not move, so the reconnect's gap reads them again.
 */
import type { SourceConnectionAction } from '@wellstream/contracts';
import { applyUpdate, Update } from '@wellstream/store';
import type { Clock } from '@wellstream/clock';
import type { Outbox } from '@wellstream/outbox';
import type { ConnectionRepository } from '../connections/connection.repository';
import { connectionMessage, Extra, syncedAtSeq } from '../connections/connection-events';
import type { IngestRecord } from '../providers/provider.port';
import { recordMessages } from './publish-records';

export interface CommitDeps {
  connections: ConnectionRepository;
  outbox: Outbox;
  clock: Clock;
}

/** `synced` announcements (they update the user's last_synced_at) at most this often. */
const ANNOUNCE_EVERY_MS = 60_000;

/** Commits a step of the connection `connectionId` (see above); its state is read again here. */
export async function commit(deps: CommitDeps, connectionId: string, records: IngestRecord[], set: Record<string, unknown>, events: [SourceConnectionAction, Extra][] = []): Promise<void> {
  const c = await deps.connections.byId(connectionId);
  if (!c || c.status === 'auth_expired') return;
  const at = deps.clock.now().toISOString();
  const recovered = c.status === 'error' || c.failures > 0;
  const announce = events.length > 0 || recovered || !c.last_announced_at || Date.parse(at) - Date.parse(c.last_announced_at) >= ANNOUNCE_EVERY_MS;
  const update: Update = {
    $set: { ...set, status: 'active', failures: 0, last_error: null, last_synced_at: at, updated_at: at, ...(announce ? { last_announced_at: at } : {}) },
    $inc: { sync_seq: 1 },
  };
  // What the write makes of the connection as stored: what the announcement says.
  const next = applyUpdate(c, update, false);
  // A step that did not land publishes nothing, also when its writer fails midway (the outbox's check).
  const check = syncedAtSeq(next);
  const messages = recordMessages(deps.outbox, next, records, at, check);
  if (announce) {
    const list: [SourceConnectionAction, Extra][] = events.length > 0 ? events : [[recovered ? 'status' : 'synced', {}]];
    for (const [action, extra] of list) messages.push(connectionMessage(deps.outbox, next, action, at, extra, check));
  }
  try {
    await deps.outbox.write(messages, async () => {
      if (!(await deps.connections.updateUnlessExpired(c._id, update))) throw new ConnectionEnded();
    });
  } catch (err) {
    if (!(err instanceof ConnectionEnded)) throw err;
  }
}

/** The connection expired or went away while the step ran: the outbox drops the step's messages. */
class ConnectionEnded extends Error {}
