/**
 * Gone users on the embedded log and store, as two replicas of a service plus one that joins
 * later: each customer's share holds that customer's deleted and erased users only, a fresh read
 * knows a deletion as soon as it is on the log, a share already loaded learns it from the tail on
 * every replica, and a replica started later reads it back from the store.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedEventLog } from '@wellstream/bus/adapters';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { consumeEvents, publishEvents, UserDataRequest, userDataRequestsTopic, UserEvent, userEventsTopic } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import { Lifecycle } from '../lifecycle';
import { GoneUsers } from './gone-users';

const logger = createLogger('test');
const eventually = async (check: () => boolean, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('not within time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

function deleted(userId: string, customerId: string): UserEvent {
  const at = new Date().toISOString();
  return {
    type: 'user.deleted',
    occurred_at: at,
    user: {
      id: userId,
      uid: `uid-${userId}`,
      organization_id: `org-${customerId}`,
      customer_id: customerId,
      status: 'deleted',
      timezone: null,
      timezone_origin: 'profile',
      country_code: null,
      mobile_token: 'm',
      sources: [],
      created_at: at,
      updated_at: at,
      deleted_at: at,
    },
  };
}

const erased = (userId: string, customerId: string): UserDataRequest => ({
  type: 'erasure.requested',
  request_id: `era_${userId}`,
  user_id: userId,
  organization_id: `org-${customerId}`,
  customer_id: customerId,
  requested_at: new Date().toISOString(),
});

describe('GoneUsers (embedded)', () => {
  let dir: string;
  let log: EmbeddedEventLog;
  let store: SqliteDocumentStore;
  const lifecycles: Lifecycle[] = [];

  const replica = async (scope: 'customer' | 'organization' = 'customer', on = store) => {
    const lifecycle = new Lifecycle(logger);
    lifecycles.push(lifecycle);
    return GoneUsers.start(
      {
      name: scope === 'customer' ? 'svc' : 'push',
      store: on,
      eventLog: log,
      logger,
      lifecycle,
      consume: async (topic, options) => lifecycle.started(`consumer ${options.groupId}`, await consumeEvents(log, topic, { ...options, logger })),
      },
      { scope },
    );
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gone-users-'));
    log = new EmbeddedEventLog({ file: path.join(dir, 'events.db'), logger });
    store = new SqliteDocumentStore(path.join(dir, 'svc.db'));
  });

  afterEach(async () => {
    for (const l of lifecycles.splice(0)) await l.stopAll();
    await log.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps each customer its own share, fresh from the log, current on every replica, and read back by a replica that joins later', async () => {
    const [one, two] = [await replica(), await replica()];
    const loadedEarly = await two.forCustomer('cus-a');
    expect(loadedEarly.has('u1')).toBe(false);

    await publishEvents(log, userEventsTopic, [deleted('u1', 'cus-a'), deleted('u3', 'cus-b')]);
    await publishEvents(log, userDataRequestsTopic, [erased('u2', 'cus-a')]);
    // A fresh read right after the publish (as after a DELETE's answer) knows both.
    const a = await one.forCustomer('cus-a', true);
    expect([a.has('u1'), a.has('u2'), a.has('u3')]).toEqual([true, true, false]);
    expect([a.erased('u1'), a.erased('u2')]).toEqual([false, true]);
    // The other replica's share, loaded before, learns it without asking again.
    await eventually(() => loadedEarly.has('u1') && loadedEarly.has('u2'));
    expect(loadedEarly.has('u3')).toBe(false);
    // A service that reads by organization (push), on its own store.
    const pushStore = new SqliteDocumentStore(path.join(dir, 'push.db'));
    const push = await replica('organization', pushStore);
    const byOrganization = await push.forOrganization('org-cus-b', true);
    expect([byOrganization.has('u3'), byOrganization.has('u1')]).toEqual([true, false]);
    await expect(push.forCustomer('cus-b')).rejects.toThrow(/by organization/);

    // A replica started later reads what was stored.
    const late = await replica();
    const b = await late.forCustomer('cus-b', true);
    expect(b.has('u3')).toBe(true);
    for (const l of lifecycles.splice(0)) await l.stopAll();
    await pushStore.close();
  });
});
