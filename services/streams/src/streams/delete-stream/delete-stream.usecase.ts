/**
 * Deleting a stream: refused (409) while clients are connected; otherwise the stream is removed for
 * good (its group id is never reused, so a new stream never inherits its position).
 */
import { toStreamView, StreamView } from '../stream';
import type { StreamDeps } from '../stream-deps';
import { streamHasClients, streamNotFound } from '../stream.errors';

export async function deleteStream(deps: StreamDeps, customerId: string, id: string): Promise<StreamView> {
  const doc = await deps.repo.findOfCustomer(customerId, id);
  if (!doc) throw streamNotFound(id);
  const members = await deps.members.count(doc.group);
  if (members > 0) throw streamHasClients(members);
  if (!(await deps.repo.remove(customerId, id))) throw streamNotFound(id);
  deps.forgetConnectable?.(customerId, id);
  return { ...toStreamView(doc, 0), deleted_at: deps.clock.now().toISOString() };
}
