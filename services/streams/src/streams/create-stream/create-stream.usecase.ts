/**
 * Creating a stream: a unique name per customer, at most 5 streams, filters fixed for its life.
 * Its consumer group is pinned at the current end of its customer's slice of the `events` topic, so the stream receives
 * every event from its creation on, even before the first client connects.
 */
import { EVENT_TYPES } from '@wellstream/catalog';
import { customerEventsTopic } from '@wellstream/contracts';
import { groupNameFor, newStreamId, StreamView, toStreamView } from '../stream';
import type { StreamDeps } from '../stream-deps';
import type { CreateStreamInput } from './create-stream.schema';

export async function createStream(deps: StreamDeps, customerId: string, input: CreateStreamInput): Promise<StreamView> {
  const at = deps.clock.now();
  const id = newStreamId(at.getTime());
  const now = at.toISOString();
  const doc = await deps.repo.insert({
    _id: id,
    customer_id: customerId,
    name: input.name,
    group: groupNameFor(id),
    start_date: input.start_date ?? null,
    resource_filter: [...new Set(input.resource_filter ?? [])],
    // Unset (or empty) means every event type; stored explicitly so the stream shows what it sends.
    event_type_filter: input.event_type_filter?.length ? [...new Set(input.event_type_filter)] : [...EVENT_TYPES],
    created_at: now,
    updated_at: now,
  });
  try {
    await deps.eventLog.startGroupAtEnd(doc.group, customerEventsTopic.spec.name, customerId);
  } catch (err) {
    // Without a pinned start the stream would silently miss events: undo, let the caller retry.
    await deps.repo.remove(customerId, id);
    throw err;
  }
  return toStreamView(doc, 0);
}
