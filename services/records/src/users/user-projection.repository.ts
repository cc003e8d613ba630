/**
 * The user projection collection over the DocumentStore port, with its lookup keys: the mobile
 * token (every mobile upload) and (organization, uid) (every REST read) each name the user in a
 * `user_keys` document whose `_id` is the key, so both hot lookups go by primary key on every
 * backend; so does a FHIR Patient id that is a hash of a long uid. A key found is always checked
 * against the user it names (keys can lag a snapshot).
 */
import { Collection, CollectionSpec, DocumentStore, DuplicateKeyError } from '@wellstream/store';
import type { UserSnapshot } from '@wellstream/contracts';
import { patientIdOf } from '@wellstream/fhir';
import { ProjectedUser, projectionFields, withDefaults } from './user-projection';

interface UserKey {
  _id: string;
  user_id: string;
}

const tokenKey = (token: string) => `mt:${token}`;
const uidKey = (organizationId: string, uid: string) => `uid:${organizationId}:${uid}`;
/** Only a uid too long to carry in a Patient id has one (a shorter uid is read back from the id). */
const patientKey = (organizationId: string, uid: string | undefined): string | null => {
  if (typeof uid !== 'string') return null;
  const id = patientIdOf(uid);
  return id.startsWith('..') ? `ph:${organizationId}:${id}` : null;
};
/**
 * Mobile tokens whose user was found, remembered per process (oldest forgotten first). A token is
 * 32 random bytes issued to one user, so its key never names another user: remembering it saves
 * every upload one read, and the user is still read each time and must still hold the token
 * (a rotated token is refused at once) and still be allowed to write (a deleted one is not).
 */
const REMEMBERED_TOKENS = 10_000;

/** Marks a store whose users all have their Patient keys (those written before the keys got them once). */
const PATIENT_KEYS_DONE = 'meta:patient-keys';

/** The collections as every opener declares them (the erasure opens them too). */
export const USER_PROJECTION_SPEC: CollectionSpec = { name: 'user_projection', indexes: [{ fields: { organization_id: 1, uid: 1 } }] };
export const USER_KEYS_SPEC: CollectionSpec = { name: 'user_keys', indexes: [{ fields: { user_id: 1 } }] };

export class UserProjectionRepository {
  /** Token → user id, for tokens found before (REMEMBERED_TOKENS). */
  private readonly tokenOwners = new Map<string, string>();

  private constructor(
    private readonly users: Collection<ProjectedUser>,
    private readonly keys: Collection<UserKey>,
  ) {}

  static async open(store: DocumentStore): Promise<UserProjectionRepository> {
    const users = await store.collection<ProjectedUser>(USER_PROJECTION_SPEC);
    const repo = new UserProjectionRepository(users, await store.collection<UserKey>(USER_KEYS_SPEC));
    // Projections written before the keys existed get theirs once, at start-up.
    if ((await repo.keys.count({ _id: { $ne: PATIENT_KEYS_DONE } })) === 0) for (const u of await users.find({})) await repo.syncKeys(null, u);
    // Likewise the Patient keys, in pages, once: the marker says they are done.
    if (!(await repo.keys.findOne({ _id: PATIENT_KEYS_DONE }))) {
      for await (const page of users.findPages({}, { sort: { _id: 1 }, pageSize: 500 })) for (const u of page) await repo.syncKeys(u, u);
      await repo.keys.bulkUpsert([{ _id: PATIENT_KEYS_DONE, user_id: '' }]);
    }
    return repo;
  }

  /**
   * Applies a snapshot unless a newer one is already there (snapshots may arrive twice). Every
   * write leaves a whole document: an update of the projected fields, or an insert of a complete
   * one (never an upsert completed by a second write, which a reader could see half done).
   */
  async apply(snapshot: UserSnapshot): Promise<ProjectedUser | null> {
    const before = await this.byId(snapshot.id);
    const after = await this.applySnapshot(snapshot);
    if (after) await this.syncKeys(before, after);
    return after;
  }

  private async applySnapshot(snapshot: UserSnapshot): Promise<ProjectedUser | null> {
    const fields = projectionFields(snapshot);
    const newer = () => this.users.findOneAndUpdate({ _id: snapshot.id, updated_at: { $lte: snapshot.updated_at } }, { $set: fields });
    const updated = await newer();
    if (updated) return withDefaults(updated);
    const doc: ProjectedUser = { _id: snapshot.id, ...fields };
    try {
      await this.users.insertOne(doc);
      return doc;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      // Inserted meanwhile (by a concurrent apply), or a newer snapshot is stored: try once more.
      return withDefaults(await newer()) ?? this.byId(snapshot.id);
    }
  }

  /** Points the user's current keys at it and drops the keys it no longer holds. */
  private async syncKeys(before: ProjectedUser | null, after: ProjectedUser): Promise<void> {
    const live = after.status !== 'deleted';
    const keep: UserKey[] = [];
    if (after.mobile_token) keep.push({ _id: tokenKey(after.mobile_token), user_id: after._id });
    if (live) keep.push({ _id: uidKey(after.organization_id, after.uid), user_id: after._id });
    const patient = live ? patientKey(after.organization_id, after.uid) : null;
    if (patient) keep.push({ _id: patient, user_id: after._id });
    await this.keys.bulkUpsert(keep);
    const stale = new Set<string>();
    if (before?.mobile_token && before.mobile_token !== after.mobile_token) stale.add(tokenKey(before.mobile_token));
    const previous = before && { uid: uidKey(before.organization_id, before.uid), patient: patientKey(before.organization_id, before.uid) };
    if (previous && previous.uid !== uidKey(after.organization_id, after.uid)) {
      stale.add(previous.uid);
      if (previous.patient) stale.add(previous.patient);
    }
    if (!live) {
      stale.add(uidKey(after.organization_id, after.uid));
      const gone = patientKey(after.organization_id, after.uid);
      if (gone) stale.add(gone);
    }
    // Only this user's keys: a reused uid may already name someone else.
    for (const key of stale) await this.keys.deleteMany({ _id: key, user_id: after._id });
  }

  async byId(id: string): Promise<ProjectedUser | null> {
    return withDefaults(await this.users.findOne({ _id: id }));
  }

  private async byKey(key: string): Promise<ProjectedUser | null> {
    const found = await this.keys.findOne({ _id: key });
    return found ? this.byId(found.user_id) : null;
  }

  async byMobileToken(token: string): Promise<ProjectedUser | null> {
    const known = this.tokenOwners.get(token);
    const user = known ? await this.byId(known) : await this.byKey(tokenKey(token));
    if (user?.mobile_token !== token) {
      if (known) this.tokenOwners.delete(token);
      return null;
    }
    if (!known) {
      if (this.tokenOwners.size >= REMEMBERED_TOKENS) this.tokenOwners.delete(this.tokenOwners.keys().next().value!);
      this.tokenOwners.set(token, user._id);
    }
    return user;
  }

  /** The live user with this uid in the organization (a deleted uid may have been reused). */
  async byUid(organizationId: string, uid: string): Promise<ProjectedUser | null> {
    const user = await this.byKey(uidKey(organizationId, uid));
    if (user && user.organization_id === organizationId && user.uid === uid && user.status !== 'deleted') return user;
    // The key lagged a snapshot (a deletion and a reuse applied out of order): ask the collection.
    return user ? withDefaults(await this.users.findOne({ organization_id: organizationId, uid, status: { $ne: 'deleted' } })) : null;
  }

  /** The live user whose FHIR Patient id is `patientId`, a hashed one (`..<hex>`) in the organization. */
  async byHashedPatientId(organizationId: string, patientId: string): Promise<ProjectedUser | null> {
    const user = await this.byKey(`ph:${organizationId}:${patientId}`);
    return user && user.organization_id === organizationId && user.status !== 'deleted' && patientIdOf(user.uid) === patientId ? user : null;
  }

  /** The organization's live (not deleted) users, by uid: a Bulk Data export's Patients. */
  async ofOrganization(organizationId: string): Promise<ProjectedUser[]> {
    const users = await this.users.find({ organization_id: organizationId, status: { $ne: 'deleted' } });
    return users.map((u) => withDefaults(u)!).sort((a, b) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0));
  }
}
