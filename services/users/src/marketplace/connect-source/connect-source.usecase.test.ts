/**
 * The users service connects only the demo source and phone apps: cloud sources connect through
 * their provider's sign-in (the sources service), without any consent step of ours.
 */
import type { EventLog } from '@wellstream/bus';
import { manualClock } from '@wellstream/clock';
import { createLogger } from '@wellstream/logging';
import { Outbox } from '@wellstream/outbox';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { newUser, User } from '../../users/user';
import { UserEvents } from '../../users/user-events';
import { UserRepository } from '../../users/user.repository';
import { connectSource, disconnectSource } from './connect-source.usecase';

describe('connectSource / disconnectSource', () => {
  let store: SqliteDocumentStore;
  let deps: { repo: UserRepository; events: UserEvents; clock: ReturnType<typeof manualClock> };
  let user: User;
  beforeEach(async () => {
    store = new SqliteDocumentStore(':memory:');
    const eventLog = { publish: async () => undefined } as unknown as EventLog;
    const outbox = await Outbox.open(store, { eventLog, logger: createLogger('users-test') });
    deps = { repo: await UserRepository.open(store), events: new UserEvents(outbox), clock: manualClock('2025-03-01T10:00:00.000Z') };
    user = newUser({ uid: 'u-1', organizationId: 'org-1', customerId: 'cus-1', location: { timezone: null, country_code: null }, now: '2025-03-01T09:00:00.000Z' });
    await deps.repo.insert(user);
  });
  afterEach(() => store.close());

  it('connects demo and phone apps without consent', async () => {
    await connectSource(deps, user.id, 'demo');
    const after = await connectSource(deps, user.id, 'apple_health');
    expect(after.sources).toEqual([
      { type: 'demo', connected_at: '2025-03-01T10:00:00.000Z' },
      { type: 'apple_health', connected_at: '2025-03-01T10:00:00.000Z' },
    ]);
  });

  it.each(['oura', 'withings', 'dexcom', 'polar', 'whoop', 'strava'])('refuses the cloud source %s with a 422 keyed `type`', async (type) => {
    await expect(connectSource(deps, user.id, type)).rejects.toMatchObject({ kind: 'unprocessable', code: 'PROVIDER_SOURCE', fieldErrors: { type: [expect.stringMatching(/sign-in/)] } });
    expect((await deps.repo.findById(user.id))!.sources).toEqual([]);
  });

  it('knows no fitbit any more', async () => {
    await expect(connectSource(deps, user.id, 'fitbit')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('leaves provider disconnects to the sources service, but removes entries no provider keeps', async () => {
    await expect(disconnectSource(deps, user.id, 'oura')).rejects.toMatchObject({ code: 'PROVIDER_SOURCE' });
    // Connected by the simulated consent of earlier releases.
    await deps.repo.replace(user, { sources: [{ type: 'fitbit', connected_at: '2024-01-01T00:00:00.000Z' }, { type: 'jawbone', connected_at: '2024-01-01T00:00:00.000Z' }] });
    await disconnectSource(deps, user.id, 'fitbit');
    expect((await disconnectSource(deps, user.id, 'jawbone')).sources).toEqual([]);
    await expect(disconnectSource(deps, user.id, 'no_such_source')).rejects.toMatchObject({ kind: 'not_found' });
  });
});
