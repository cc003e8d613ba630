/**
 * The DocumentStore contract on MongoDB through mongoose (FerretDB here; MongoDB in compose).
 */
import { createLogger } from '@wellstream/logging';
import { realServers, uniqueTestName } from '@wellstream/testing';
import { MongoDocumentStore } from '../src/adapters';
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
