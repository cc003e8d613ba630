/**
 * A phone store's accepted upload, as records reports it: the connection's `last_synced_at`
 * becomes the upload's time and `uploaded` gathers what the uploads brought (resource types, the
 * latest record end), announced as `synced` so `user.sources` and the marketplace show it. Every
 * upload is announced (unlike a provider's polls, at most once a minute): the app sends few large
 * batches, and the last one must show. An upload older than what is held changes nothing.
 */
import type { PhoneUploads, SourceDetection } from '@wellstream/contracts';
import type { Connection } from './connection';
import { connectionMessage } from './connection-events';
import type { ConnectAtOnceDeps } from './connect-at-once.usecase';

type Upload = NonNullable<SourceDetection['upload']>;

export function uploadsAfter(before: PhoneUploads | undefined, upload: Upload): PhoneUploads {
  const resources = [...new Set([...(before?.resources ?? []), ...upload.resources])].sort();
  const ends = [before?.last_record_at ?? null, upload.last_record_at].filter((t): t is string => t !== null).sort();
  return { resources, last_record_at: ends.length ? ends[ends.length - 1] : null };
}

/** `at`: when records stored the upload. The announcement is dated by this service's clock, as its other events of the connection are. */
export async function recordPhoneUpload(deps: Pick<ConnectAtOnceDeps, 'connections' | 'outbox' | 'clock'>, c: Connection, at: string, upload: Upload): Promise<boolean> {
  if (c.last_synced_at && c.last_synced_at >= at) return false;
  const now = deps.clock.now().toISOString();
  const set = { last_synced_at: at, uploaded: uploadsAfter(c.uploaded, upload), updated_at: now };
  const next: Connection = { ...c, ...set, sync_seq: c.sync_seq + 1 };
  // Announced only if the update applied (the state check): a disconnect meanwhile removes the connection.
  await deps.outbox.write([connectionMessage(deps.outbox, next, 'synced', now)], async () => void (await deps.connections.update(c._id, { $set: set, $inc: { sync_seq: 1 } }, { sync_seq: c.sync_seq })));
  return true;
}
