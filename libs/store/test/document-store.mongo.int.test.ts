/**
 * The DocumentStore contract on MongoDB through mongoose (FerretDB here; MongoDB in compose).
 */
import mongoose from 'mongoose';
import { createLogger } from '@wellstream/logging';
import { realServers, uniqueTestName } from '@wellstream/testing';
import { MongoDocumentStore } from '../src/adapters';
import type { CollectionSpec } from '../src/document-store.port';
import { documentStoreContract } from '../src/document-store.contract';

jest.setTimeout(60_000);

documentStoreContract('mongodb', async () => {
  const { mongoUrl } = realServers();
  const logger = createLogger('store-test');
  const opened: MongoDocumentStore[] = [];
  const open = (dbName: string) => {
    const s = new MongoDocumentStore({ url: mongoUrl, dbName, logger });
    opened.push(s);
    return s;
  };
  return {
    open: async () => open(uniqueTestName('store')),
    openNonTest: async () => open(`wellstream_prod_like_${Date.now()}`),
    cleanup: async () => {
      for (const s of opened) await s.close();
    },
  };
});

describe('mongodb indexes', () => {
  it('creates every declared index at start, idempotently: a restart, and a later opener declaring one more', async () => {
    const { mongoUrl } = realServers();
    const dbName = uniqueTestName('indexes');
    const spec: CollectionSpec = { name: 'jobs', indexes: [{ fields: { user_id: 1, due_at: 1 } }, { fields: { token: 1 }, unique: true }] };
    for (let start = 0; start < 2; start++) {
      const store = new MongoDocumentStore({ url: mongoUrl, dbName, logger: createLogger('store-test') });
      await store.collection(spec);
      if (start === 1) await store.collection({ ...spec, indexes: [...(spec.indexes ?? []), { fields: { due_at: -1 } }] });
      await store.close();
    }
    const client = await mongoose.mongo.MongoClient.connect(mongoUrl);
    try {
      const indexes = await client.db(dbName).collection('jobs').listIndexes().toArray();
      expect(indexes.map((ix) => [JSON.stringify(ix.key), ix.unique ?? false]).sort()).toEqual(
        [['{"_id":1}', false], ['{"due_at":-1}', false], ['{"token":1}', true], ['{"user_id":1,"due_at":1}', false]].sort(),
      );
    } finally {
      await client.db(dbName).dropDatabase();
      await client.close();
    }
  });
});
