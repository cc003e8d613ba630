/**
 * Reading one stream, with its current number of connected clients.
 */
import { toStreamView, StreamView } from '../stream';
import type { StreamDeps } from '../stream-deps';
import { streamNotFound } from '../stream.errors';

export async function getStream(deps: StreamDeps, customerId: string, id: string): Promise<StreamView> {
  const doc = await deps.repo.findOfCustomer(customerId, id);
  if (!doc) throw streamNotFound(id);
  return toStreamView(doc, await deps.members.count(doc.group));
}
