/**
 * The streams clients connect to, read through a short cache. When a replica goes away its clients
 * reconnect to the others within the same second, mostly to a few streams: asking the store once
 * per stream instead of once per client keeps the storm's cost with the streams, and each
 * connection's set-up light (no store round trip and its garbage per client).
 *
 * Only streams found are kept, so a stream created on another replica is found at once. A stream
 * deleted on another replica may still accept a connection for up to `ttlMs` (deleting here
 * forgets it at once); the client then holds the deleted stream's group until it disconnects, the
 * same window the README's known limits give for a client connecting during a delete.
 */
import type { StreamDoc } from '../../streams/stream';
import type { StreamRepository } from '../../streams/stream.repository';

export class ConnectableStreams {
  private readonly cache = new Map<string, { doc: StreamDoc; at: number }>();

  constructor(
    private readonly repo: Pick<StreamRepository, 'findOfCustomer'>,
    private readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
  ) {}

  async find(customerId: string, id: string): Promise<StreamDoc | null> {
    const key = `${customerId}/${id}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < this.ttlMs) return hit.doc;
    const doc = await this.repo.findOfCustomer(customerId, id);
    this.cache.delete(key);
    if (doc) {
      // Oldest first in a Map: dropping the first entry bounds the cache.
      if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, { doc, at: Date.now() });
    }
    return doc;
  }

  forget(customerId: string, id: string): void {
    this.cache.delete(`${customerId}/${id}`);
  }
}
