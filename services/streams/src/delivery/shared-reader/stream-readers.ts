/**
 * The stream readers of one process: at most one per stream that has clients here (so broker
 * connections grow with the streams that have clients, never with the clients), created with the
 * stream's first local client and dropped once its last one has gone and the reader left the group.
 */
import type { EventFilter } from '../event-filter';
import { GroupReaderDeps, StreamClient, StreamGroupReader } from './stream-group-reader';

export class StreamReaders {
  private readonly readers = new Map<string, StreamGroupReader>();

  constructor(private readonly deps: GroupReaderDeps) {}

  /** Adds the client to its stream's reader here; the returned function takes it out (idempotent). */
  attach(group: string, filter: EventFilter, client: StreamClient): () => void {
    let reader = this.readers.get(group);
    if (!reader) {
      const created = new StreamGroupReader(group, filter, this.deps, () => {
        if (this.readers.get(group) === created && created.clientCount === 0) this.readers.delete(group);
      });
      reader = created;
      this.readers.set(group, reader);
    }
    reader.add(client);
    const owner = reader;
    return () => owner.remove(client);
  }

  /** Waits for every reader to finish joining or leaving (shutdown: clients are closed first). */
  async stop(): Promise<void> {
    await Promise.all([...this.readers.values()].map((r) => r.settled()));
  }

  get size(): number {
    return this.readers.size;
  }
}
