/**
 * Two replicas (two schedulers on one store) deliver every batch exactly once, first tries in
 * formation order per organization; a stopped scheduler's work is picked up by the other.
 */
import { NOBODY_GONE } from '@wellstream/runtime';
import { WithheldItemRepository } from '../../withheld/withheld-item.repository';
import { createLogger } from '@wellstream/logging';
import type { TestableDocumentStore } from '@wellstream/store';
import { MongoDocumentStore, SqliteDocumentStore } from '@wellstream/store/adapters';
import { byRuntime, realServers, uniqueTestName } from '@wellstream/testing';
import { TargetRepository } from '../../targets/target.repository';
import type { PushRequest, PushResponse, PushSender } from '../../delivery/push-sender';
import { BatchRepository } from '../batch.repository';
import { nextArrivalOrder, PendingItemRepository } from '../pending-item.repository';
import { PushOrganizationRepository } from '../push-organization.repository';
import { PushScheduler, PushSchedulerDeps } from './push-scheduler';
import { systemClock } from '@wellstream/clock';

class FakeSender implements PushSender {
  sent: { org: string; id: string; at: number }[] = [];
  constructor(private readonly reply: (req: PushRequest) => number) {}
  async send(req: PushRequest): Promise<PushResponse> {
    await new Promise((r) => setTimeout(r, 20));
    const body = JSON.parse(req.body);
    this.sent.push({ org: new URL(req.url).pathname.slice(1), id: body.id, at: Date.now() });
    return { code: this.reply(req), body: '' };
  }
}

async function until(pred: () => Promise<boolean>, ms = 8000) {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

// The same cases on each store adapter: SQLite embedded, MongoDB in the integration project.
function pushSchedulerSuite(label: string, makeStore: () => TestableDocumentStore): void {
describe(`PushScheduler with two replicas (${label})`, () => {
  let store: TestableDocumentStore;
  let base: Omit<PushSchedulerDeps, 'sender'>;
  const ORGS = ['org-a', 'org-b', 'org-c'];

  beforeEach(async () => {
    store = makeStore();
    base = {
      targets: await TargetRepository.open(store),
      pendingItems: await PendingItemRepository.open(store),
      batches: await BatchRepository.open(store),
      organizations: await PushOrganizationRepository.open(store),
      gone: NOBODY_GONE,
      withheld: await WithheldItemRepository.open(store),
      settings: { flushMs: 0, batchSize: 2, retryDelaysMs: [50, 50], jitter: 0.1, pollMs: 10, timeoutMs: 1000 },
      logger: createLogger('test'),
      clock: systemClock,
    };
    for (const org of ORGS) {
      await base.targets.put({ _id: org, organization_id: org, customer_id: 'c', url: `http://127.0.0.1:1/${org}`, secret: null, resource_filter: [] }, new Date(0).toISOString());
      for (let i = 0; i < 8; i++) {
        await base.pendingItems.add({ _id: `${org}-${i}`, organization_id: org, enqueued_ms: 0, order: nextArrivalOrder(Date.now()), record: { i } });
      }
    }
  });
  afterEach(async () => {
    await store.dropForTests().catch(() => undefined);
    await store.close();
  });

  it('sends every batch once, each organization’s first tries in order', async () => {
    const sender = new FakeSender(() => 200);
    const a = new PushScheduler({ ...base, sender });
    const b = new PushScheduler({ ...base, sender });
    a.start();
    b.start();
    try {
      await until(async () => (await base.batches.due(Date.now() + 1e9, 100)).length === 0 && sender.sent.length >= 12);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect(sender.sent).toHaveLength(12);
    expect(new Set(sender.sent.map((s) => s.id)).size).toBe(12);
    for (const org of ORGS) {
      const { batches } = await base.batches.list({ organizationId: org, offset: 0, limit: 100 });
      const bySeq = [...batches].sort((x, y) => x.seq - y.seq).map((x) => x._id);
      expect(sender.sent.filter((s) => s.org === org).map((s) => s.id)).toEqual(bySeq);
      expect(batches.every((x) => x.state === 'SUCCESS' && x.attempt_count === 1)).toBe(true);
    }
  });

  it('retries on another replica after the first stops, recording every try', async () => {
    // Every batch's first try fails and every later one succeeds, decided by batch id rather than
    // by call count: on a slow store a retry can come before the last first try, and a count would
    // then fail that retry too.
    const tried = new Set<string>();
    const sender = new FakeSender((req) => {
      const id = JSON.parse(req.body).id as string;
      if (tried.has(id)) return 200;
      tried.add(id);
      return 500;
    });
    const a = new PushScheduler({ ...base, sender });
    a.start();
    await until(async () => sender.sent.length >= 12);
    await a.stop();
    const sentByA = sender.sent.length;
    const b = new PushScheduler({ ...base, sender });
    b.start();
    try {
      await until(async () => (await base.batches.list({ organizationId: 'org-a', offset: 0, limit: 100, status: 'success' })).total === 4);
      await until(async () => (await base.batches.due(Date.now() + 1e9, 100)).length === 0);
    } finally {
      await b.stop();
    }
    for (const org of ORGS) {
      const { batches } = await base.batches.list({ organizationId: org, offset: 0, limit: 100 });
      for (const x of batches) {
        expect(x.state).toBe('SUCCESS');
        expect(x.attempts.map((t) => t.response.code)).toEqual([500, 200]);
      }
    }
    expect(sender.sent).toHaveLength(24);
    // The replica that took over made retries of batches the stopped one had tried.
    const firstTriedByA = new Set(sender.sent.slice(0, sentByA).map((s) => s.id));
    expect(sender.sent.slice(sentByA).some((s) => firstTriedByA.has(s.id))).toBe(true);
  });
});
}

// Embedded on SQLite, distributed on the MongoDB API (FerretDB).
const stores = {
  embedded: () => pushSchedulerSuite('sqlite', () => new SqliteDocumentStore(':memory:')),
  distributed: () => pushSchedulerSuite('mongodb', () => new MongoDocumentStore({ url: realServers().mongoUrl, dbName: uniqueTestName('notifsched'), logger: createLogger('test') })),
};
jest.setTimeout(byRuntime({ embedded: 30_000, distributed: 60_000 }));
byRuntime(stores)();
