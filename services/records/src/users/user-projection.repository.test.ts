/**
 * The user projection never exposes a half-written user: snapshots are applied as whole documents,
 * older snapshots never overwrite newer ones, and reads tolerate documents missing fields.
 */
import type { UserSnapshot } from '@wellstream/contracts';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { patientIdOf } from '@wellstream/fhir';
import { UserProjectionRepository } from './user-projection.repository';

const snapshot = (over: Partial<UserSnapshot> = {}): UserSnapshot => ({
  id: 'usr-p1',
  uid: 'p1',
  organization_id: 'org-1',
  customer_id: 'cus-1',
  status: 'active',
  timezone: 'UTC',
  timezone_origin: 'profile',
  country_code: null,
  mobile_token: 'mob_projection_token_000000000000',
  sources: [],
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  deleted_at: null,
  ...over,
});

describe('user projection', () => {
  let store: SqliteDocumentStore;
  let users: UserProjectionRepository;
  beforeEach(async () => {
    store = new SqliteDocumentStore(':memory:');
    users = await UserProjectionRepository.open(store);
  });
  afterEach(() => store.close());

  it('inserts a new user whole, applies newer snapshots and ignores older ones, keeping no sources (the sources service\'s copy has them)', async () => {
    expect(await users.apply(snapshot())).toMatchObject({ _id: 'usr-p1' });
    await users.apply(snapshot({ updated_at: '2025-01-02T00:00:00.000Z', timezone: 'Asia/Kolkata', sources: [{ type: 'demo', connected_at: '2025-01-02T00:00:00.000Z' }] }));
    await users.apply(snapshot({ status: 'suspended' }));
    const user = await users.byMobileToken('mob_projection_token_000000000000');
    expect(user).toMatchObject({ status: 'active', timezone: 'Asia/Kolkata' });
    expect(user).not.toHaveProperty('sources');
    expect(user).not.toHaveProperty('detected_sources');
  });

  it('two applies of a new user at once leave the newer snapshot', async () => {
    await Promise.all([users.apply(snapshot({ updated_at: '2025-01-03T00:00:00.000Z', timezone: 'Europe/Berlin' })), users.apply(snapshot())]);
    expect((await users.byId('usr-p1'))?.timezone).toBe('Europe/Berlin');
  });

  it('reads a document an earlier release wrote, with the source lists it kept then, without them', async () => {
    const raw = await store.collection<{ _id: string; mobile_token: string; status: string; sources: string[]; detected_sources: string[] }>({ name: 'user_projection' });
    await raw.insertOne({ _id: 'usr-old', mobile_token: 'mob_old_document_token_00000000', status: 'active', sources: ['demo'], detected_sources: ['apple_health'] });
    // Such documents come from an earlier release; the next start-up gives them their lookup keys.
    users = await UserProjectionRepository.open(store);
    const user = await users.byMobileToken('mob_old_document_token_00000000');
    expect(user).toMatchObject({ _id: 'usr-old', status: 'active' });
    expect(user).not.toHaveProperty('detected_sources');
  });

  it('remembers whose a mobile token is after the first find, yet reads the user each time and refuses the token once rotated', async () => {
    await users.apply(snapshot());
    const keys = await store.collection<{ _id: string; user_id: string }>({ name: 'user_keys' });
    expect(await users.byMobileToken('mob_projection_token_000000000000')).toMatchObject({ _id: 'usr-p1' });
    // Remembered: found without its key (which no other user can ever hold), as stored now.
    await keys.deleteMany({ _id: 'mt:mob_projection_token_000000000000' });
    await users.apply(snapshot({ status: 'suspended', updated_at: '2025-01-02T00:00:00.000Z' }));
    expect(await users.byMobileToken('mob_projection_token_000000000000')).toMatchObject({ status: 'suspended' });
    await users.apply(snapshot({ mobile_token: 'mob_rotated_token_00000000000000', updated_at: '2025-01-03T00:00:00.000Z' }));
    expect(await users.byMobileToken('mob_projection_token_000000000000')).toBeNull();
    expect(await users.byMobileToken('mob_rotated_token_00000000000000')).toMatchObject({ _id: 'usr-p1', status: 'active' });
    // A token never found is not remembered: made up, it stays refused.
    expect(await users.byMobileToken('mob_never_issued_token_0000000000')).toBeNull();
  });

  describe('a Patient id hashed from a long uid', () => {
    const longUid = `long_${'x'.repeat(80)}`;
    const hashed = patientIdOf(longUid);

    it('finds its user by a key of its own, not a read of the organization, and no longer once deleted or renamed', async () => {
      expect(hashed.startsWith('..')).toBe(true);
      await users.apply(snapshot({ uid: longUid }));
      expect(await users.byHashedPatientId('org-1', hashed)).toMatchObject({ _id: 'usr-p1' });
      expect(await users.byHashedPatientId('org-2', hashed)).toBeNull();
      await users.apply(snapshot({ uid: 'short', updated_at: '2025-01-02T00:00:00.000Z' }));
      expect(await users.byHashedPatientId('org-1', hashed)).toBeNull();
      await users.apply(snapshot({ uid: longUid, updated_at: '2025-01-03T00:00:00.000Z' }));
      await users.apply(snapshot({ uid: longUid, status: 'deleted', updated_at: '2025-01-04T00:00:00.000Z' }));
      expect(await users.byHashedPatientId('org-1', hashed)).toBeNull();
    });

    it('gives users stored before these keys theirs once, at the next start', async () => {
      await users.apply(snapshot({ uid: longUid }));
      const keys = await store.collection<{ _id: string; user_id: string }>({ name: 'user_keys' });
      // As an earlier release left the store: the other keys, no Patient key and no marker.
      await keys.deleteMany({ _id: { $in: [`ph:org-1:${hashed}`, 'meta:patient-keys'] } });
      expect(await users.byHashedPatientId('org-1', hashed)).toBeNull();
      users = await UserProjectionRepository.open(store);
      expect(await users.byHashedPatientId('org-1', hashed)).toMatchObject({ _id: 'usr-p1' });
      expect(await keys.findOne({ _id: 'meta:patient-keys' })).not.toBeNull();
    });
  });
});
