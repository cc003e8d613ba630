/**
 * Two replicas' stores over one database, for tests of what replicas race for: two connections to
 * one database on the real servers; in the embedded runtime (one process, one store) the same
 * SQLite store twice. `close` drops the database and closes both.
 */
import { createLogger } from '@wellstream/logging';
import type { TestableDocumentStore } from '@wellstream/store';
import { MongoDocumentStore, SqliteDocumentStore } from '@wellstream/store/adapters';
import { realServers, uniqueTestName } from './real-servers';
import { testRuntime } from './test-runtime';

export interface ReplicaStores {
  /** `sqlite` or `mongodb`, for test names. */
  label: string;
  open(): [TestableDocumentStore, TestableDocumentStore];
  close(): Promise<void>;
}

export function replicaStores(prefix: string): ReplicaStores {
  let opened: TestableDocumentStore[] = [];
  const embedded = testRuntime() === 'embedded';
  return {
    label: embedded ? 'sqlite' : 'mongodb',
    open() {
      if (embedded) {
        const store = new SqliteDocumentStore(':memory:');
        opened = [store];
        return [store, store];
      }
      const dbName = uniqueTestName(prefix);
      const connect = () => new MongoDocumentStore({ url: realServers().mongoUrl, dbName, logger: createLogger('test') });
      const pair: [TestableDocumentStore, TestableDocumentStore] = [connect(), connect()];
      opened = pair;
      return pair;
    },
    async close() {
      await opened[0]?.dropForTests().catch(() => undefined);
      for (const s of opened) await s.close();
      opened = [];
    },
  };
}
