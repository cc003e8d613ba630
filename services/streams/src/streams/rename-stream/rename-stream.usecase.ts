/**
 * Renaming a stream: the only change a stream allows (its name stays unique per customer).
 */
import { toStreamView, StreamView } from '../stream';
import type { StreamDeps } from '../stream-deps';
import { streamNotFound } from '../stream.errors';

export async function renameStream(deps: StreamDeps, customerId: string, id: string, name: string): Promise<StreamView> {
  const doc = await deps.repo.rename(customerId, id, name, deps.clock.now().toISOString());
  if (!doc) throw streamNotFound(id);
  return toStreamView(doc, await deps.members.count(doc.group));
}
