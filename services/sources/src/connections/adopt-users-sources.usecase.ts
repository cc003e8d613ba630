/**
 * Upgrading from the version where the users service kept the demo source and the phone apps in
 * its own `user.sources` (connected there, from the marketplace or its own reading of
 * `source-detections`): those connections exist only in its copy, which this service now owns.
 * On start, before detections are read, every such entry of the users service's latest snapshots
 * (the compacted `users` topic) that this service does not hold is stored here as it stands, with
 * its `connected_at`. The customer heard `connected` when it was made, so it goes out on
 * `source-connections` as a `status` event: records' copy (availability), which never had it,
 * gets it, and the users service only refreshes the entry it holds, with no customer event.
 * Afterwards the demo source runs for the user again, a replayed detection finds the connection
 * and announces nothing, and a disconnect goes out as usual.
 *
 * Idempotent: a connection held is left alone, two replicas storing the same one meet on its id,
 * and an entry not newer than this service's last disconnection of it is one whose `disconnected`
 * the users service has not applied yet, so it is not brought back.
 *
 * Every start adopts, but reads the log whole only until a run completes; later starts read what
 * was appended since a little before the last completed run began (a user unchanged since then was
 * judged then, from the same snapshot). So a restart after the last old users replica stopped
 * (docs/operations.md) still finds what that replica connected late, and a run cut short (a crash)
 * leaves the mark where it was, to be done again.
 */
import { sourceDefinition } from '@wellstream/catalog';
import type { Clock } from '@wellstream/clock';
import type { Outbox } from '@wellstream/outbox';
import type { UserSnapshot } from '@wellstream/contracts';
import { DuplicateKeyError } from '@wellstream/store';
import { CONNECTIONS_COLLECTION, ConnectionRepository } from './connection.repository';
import type { DisconnectionLog } from './disconnection-log';
import type { AdoptionMarks } from './adoption-marks';
import { connectionId } from './connection';
import { atOnceConnection } from './connect-at-once.usecase';
import { connectionMessage } from './connection-events';

export interface AdoptUsersSourcesDeps {
  connections: ConnectionRepository;
  disconnections: DisconnectionLog;
  outbox: Outbox;
  clock: Clock;
}

export interface AdoptedConnection {
  user_id: string;
  source_type: string;
}

/**
 * How far before a completed run's start the next one reads: covers snapshots appended while it
 * read, and the users service's clock (which stamps them) running behind this one.
 */
export const ADOPTION_OVERLAP_MS = 60 * 60_000;

const adoptable = (type: string): boolean => {
  const kind = sourceDefinition(type)?.kind;
  return kind === 'demo' || kind === 'mobile';
};

/** Stores what the snapshots hold and this service does not; returns what it stored. */
export async function adoptUsersSources(deps: AdoptUsersSourcesDeps, snapshots: Iterable<UserSnapshot>): Promise<AdoptedConnection[]> {
  const adopted: AdoptedConnection[] = [];
  for (const user of snapshots) {
    if (user.status === 'deleted') continue;
    for (const entry of user.sources) {
      if (!adoptable(entry.type)) continue;
      if (await deps.connections.byId(connectionId(user.id, entry.type))) continue;
      const ended = await deps.disconnections.lastAt(user.id, entry.type);
      if (ended !== null && Date.parse(ended) >= Date.parse(entry.connected_at)) continue;
      const c = { ...atOnceConnection({ _id: user.id, organization_id: user.organization_id }, entry.type, entry.connected_at), updated_at: entry.connected_at };
      const check = { collection: CONNECTIONS_COLLECTION, filter: { _id: c._id, created_by: c.created_by } };
      try {
        // No one waits for the copies: published when the relay gets to it.
        await deps.outbox.write([connectionMessage(deps.outbox, c, 'status', deps.clock.now().toISOString(), {}, check)], () => deps.connections.insert(c), { publishWithinMs: 0 });
      } catch (err) {
        // Another replica adopted it, or the user connected it meanwhile: held either way.
        if (err instanceof DuplicateKeyError) continue;
        throw err;
      }
      adopted.push({ user_id: user.id, source_type: entry.type });
    }
  }
  return adopted;
}

/** Adopts from the snapshots appended since the last completed run (all of them the first time). */
export async function adoptSinceLastRun(
  deps: AdoptUsersSourcesDeps & { marks: AdoptionMarks },
  latestSnapshots: (fromMs?: number) => Promise<Iterable<UserSnapshot>>,
): Promise<AdoptedConnection[]> {
  // Log time, not the service clock: the log stamps snapshots with the writer's wall clock.
  const startedMs = Date.now();
  const adopted = await adoptUsersSources(deps, await latestSnapshots(await deps.marks.readFrom()));
  await deps.marks.completed(startedMs - ADOPTION_OVERLAP_MS, deps.clock.now().toISOString());
  return adopted;
}
