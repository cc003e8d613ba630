/**
 * Users whose data no customer channel may hand out any more: deleted (`user.deleted` on the
 * `users` topic; the data is kept for the operator's special request only) or erased
 * (`erasure.requested` on `user-data-requests`). Streams, replays, push and its status endpoints
 * skip their events and items.
 *
 * Kept per customer, never as one platform-wide set: the service's own store holds one document
 * per gone user (partitioned by customer, or by organization where push reads them), fed by a consumer group so that it
 * survives restarts and serves replicas that join later; a process loads a customer's (or an
 * organization's) share the first time it reads that customer's events, so what a process holds
 * follows the customers it serves. Every process also tails both topics from its start, so a
 * deletion reaches the shares it has loaded on every replica, not only on the group member that
 * stored it. A share, once loaded, stays for the process's life (readers hold it and the tails keep
 * it current): its size is that customer's gone users, and a process holds the shares of the
 * customers it served since it started.
 *
 * A fresh read (a replay or stream reader starting, a batch shown or redelivered) first waits, at
 * most `maxWaitMs`, until the group has stored what the log held a moment before, then reads the
 * share again: a DELETE has answered only once `user.deleted` is on the log (the users service's
 * outbox publishes before answering), so a read that starts after the answer knows the user.
 * Readers already running learn it from the tail (docs/data-lifecycle.md, the race window).
 */
import type { GroupPosition } from '@wellstream/bus';
import { decodeEvent, THIRTY_DAYS_MS, TopicDefinition, UserDataRequest, userDataRequestsTopic, UserEvent, userEventsTopic } from '@wellstream/contracts';
import type { Collection } from '@wellstream/store';
import type { ServiceContext } from '../start-service';

export interface GoneUserDoc {
  /** The user id. */
  _id: string;
  customer_id: string;
  organization_id: string;
  gone_at: string;
  /** Erased (nothing kept) rather than deleted (kept for the special request). */
  erased: boolean;
}

/** One customer's (or organization's) gone users, kept current while the process runs. */
export interface GoneUsersOf {
  has(userId: string): boolean;
  /** Erased, not only deleted: nothing of theirs may be kept aside. */
  erased(userId: string): boolean;
}

export interface GoneUser {
  userId: string;
  customerId: string;
  organizationId: string;
  at: string;
  erased: boolean;
}

type Scope = `c:${string}` | `o:${string}`;

class Share implements GoneUsersOf {
  readonly ids = new Map<string, boolean>();
  constructor(private readonly legacy: Set<string>) {}
  has = (userId: string) => this.ids.has(userId) || this.legacy.has(userId);
  erased = (userId: string) => this.ids.get(userId) === true || this.legacy.has(userId);
  add(userId: string, erased: boolean): void {
    this.ids.set(userId, erased || this.ids.get(userId) === true);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const GONE_USERS_COLLECTION = 'gone_users';

/** The service's context (its groups are `<name>.gone-users` and `<name>.gone-users-erasures`). */
type GoneUsersContext = Pick<ServiceContext, 'name' | 'store' | 'eventLog' | 'logger' | 'consume' | 'lifecycle'>;

export class GoneUsers {
  private readonly shares = new Map<Scope, { share: Share; loaded: Promise<void> }>();
  private readonly legacy = new Set<string>();

  private constructor(
    private readonly docs: Collection<GoneUserDoc>,
    private readonly options: GoneUsersContext,
    /** How long a fresh read waits for the groups to store what the log holds. */
    private readonly maxWaitMs: number,
    /** What the service reads shares by: its customers (streams) or its organizations (push). */
    private readonly scope: 'customer' | 'organization',
  ) {}

  /**
   * `onGone`: what the service does once per gone user (its group member, after storing it; a
   * failure is tried again by the log), e.g. take the user's items out of what it still holds.
   */
  static async start(
    options: GoneUsersContext,
    { scope, maxWaitMs = 2_000, onGone }: { scope: 'customer' | 'organization'; maxWaitMs?: number; onGone?: (user: GoneUser) => Promise<void> },
  ): Promise<GoneUsers> {
    // Partitioned by the scope the service reads by: a share's read touches that customer's (or
    // organization's) documents only, on every backend (FerretDB v1 keeps a table per value).
    const key = scope === 'customer' ? 'customer_id' : 'organization_id';
    const docs = await options.store.collection<GoneUserDoc>({ name: GONE_USERS_COLLECTION, partitionKey: key, indexes: [{ fields: { [key]: 1, _id: 1 } }] });
    const gone = new GoneUsers(docs, options, maxWaitMs, scope);
    await gone.loadLegacy();
    await options.eventLog.ensureTopic(userEventsTopic.spec);
    await options.eventLog.ensureTopic(userDataRequestsTopic.spec);
    // Live first, so nothing falls between the tails' start and the shares' first loads.
    const from = Date.now() - 60_000;
    const tails = [
      gone.keepTailing(userEventsTopic.spec.name, from, async (value) => gone.remember(fromUserEvent(decodeOrNull(userEventsTopic, value)))),
      gone.keepTailing(userDataRequestsTopic.spec.name, from, async (value) => gone.remember(fromRequest(decodeOrNull(userDataRequestsTopic, value)))),
    ];
    options.lifecycle.onStop('gone users tails', () => Promise.all(tails.map((stop) => stop())).then(() => undefined));
    await options.consume<UserEvent>(userEventsTopic, {
      groupId: gone.groups[0],
      fromBeginning: true,
      handle: async (event) => {
        const user = fromUserEvent(event);
        if (!user) return;
        await gone.add(user);
        await onGone?.(user);
      },
    });
    await options.consume<UserDataRequest>(userDataRequestsTopic, {
      groupId: gone.groups[1],
      fromBeginning: true,
      handle: async (request) => {
        const user = fromRequest(request);
        if (!user) return;
        await gone.add(user);
        await onGone?.(user);
      },
    });
    return gone;
  }

  /**
   * Tails `topic` from `from` on, starting again (from the same time) while the log cannot start it
   * yet (a topic created a moment ago has no leader on Kafka yet): fresh reads go through the
   * store meanwhile. Returns what stops it.
   */
  private keepTailing(topic: string, from: number, handle: (value: string) => Promise<void>): () => Promise<void> {
    let stopped = false;
    let subscription: { stop(): Promise<void> } | undefined;
    const started = (async () => {
      for (let attempt = 1; !stopped; attempt++) {
        try {
          subscription = await this.options.eventLog.tail({ topic, fromTimestamp: from, handle: (m) => handle(m.value) });
          if (stopped) await subscription.stop();
          return;
        } catch (err) {
          this.options.logger.warn('gone users: tailing a topic failed; trying again', { topic, attempt, error: err });
          await sleep(Math.min(500 * attempt, 5_000));
        }
      }
    })();
    return async () => {
      stopped = true;
      await started;
      await subscription?.stop().catch(() => undefined);
    };
  }

  private get groups(): [string, string] {
    return [`${this.options.name}.gone-users`, `${this.options.name}.gone-users-erasures`];
  }

  /**
   * A customer's gone users. `fresh`: the share also holds every deletion on the log a moment
   * before the call (waits for the groups, reads the store again); otherwise a loaded share is
   * returned as it is (kept current by the tails), and only a first use loads it.
   */
  async forCustomer(customerId: string, fresh = false): Promise<GoneUsersOf> {
    if (this.scope !== 'customer') throw new Error('gone users: this service keeps them by organization');
    return this.shareOf(`c:${customerId}`, { customer_id: customerId }, fresh);
  }

  /** An organization's gone users (push: batches and queues belong to an organization). */
  async forOrganization(organizationId: string, fresh = false): Promise<GoneUsersOf> {
    if (this.scope !== 'organization') throw new Error('gone users: this service keeps them by customer');
    return this.shareOf(`o:${organizationId}`, { organization_id: organizationId }, fresh);
  }

  /** Stores a user as gone (idempotent) and adds it to the shares this process holds. */
  async add(user: GoneUser): Promise<void> {
    this.remember(user);
    const before = await this.docs.findOne(this.scope === 'customer' ? { _id: user.userId, customer_id: user.customerId } : { _id: user.userId, organization_id: user.organizationId });
    await this.docs.bulkUpsert([
      {
        _id: user.userId,
        customer_id: user.customerId,
        organization_id: user.organizationId,
        gone_at: before?.gone_at ?? user.at,
        erased: user.erased || before?.erased === true,
      },
    ]);
  }

  private remember(user: GoneUser | undefined): void {
    if (!user) return;
    this.shares.get(`c:${user.customerId}`)?.share.add(user.userId, user.erased);
    this.shares.get(`o:${user.organizationId}`)?.share.add(user.userId, user.erased);
  }

  private async shareOf(scope: Scope, filter: Partial<GoneUserDoc>, fresh: boolean): Promise<GoneUsersOf> {
    let entry = this.shares.get(scope);
    if (entry && !fresh) {
      await entry.loaded;
      return entry.share;
    }
    if (fresh) await this.catchUp();
    if (!entry) {
      // Registered before the read, so what the tails bring meanwhile lands in it.
      const share = new Share(this.legacy);
      entry = { share, loaded: this.load(share, filter) };
      this.shares.set(scope, entry);
      entry.loaded.catch(() => this.shares.delete(scope));
    } else if (fresh) {
      await this.load(entry.share, filter);
    }
    await entry.loaded;
    return entry.share;
  }

  private async load(share: Share, filter: Partial<GoneUserDoc>): Promise<void> {
    for await (const page of this.docs.findPages(filter, { sort: { _id: 1 }, pageSize: 1000 })) for (const d of page) share.add(d._id, d.erased);
  }

  /** Waits (bounded) until both groups have stored what the log held when called. */
  private async catchUp(): Promise<void> {
    const deadline = Date.now() + this.maxWaitMs;
    const topics = [userEventsTopic.spec.name, userDataRequestsTopic.spec.name];
    // A log that cannot say where it stands (an outage) does not hold the read past the deadline.
    const positionsOf = (group: string, topic: string): Promise<GroupPosition[] | undefined> => {
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([
        this.options.eventLog.groupPositions(group, topic).catch(() => undefined),
        new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(1, deadline - Date.now())))),
      ]).finally(() => clearTimeout(timer));
    };
    const positions = () => Promise.all(this.groups.map((g, i) => positionsOf(g, topics[i])));
    const target = await positions();
    for (let pause = 5; ; pause = Math.min(pause * 2, 50)) {
      const now = await positions();
      if (target.every((t, i) => !t || reachedAll(now[i], t))) return;
      if (Date.now() >= deadline) {
        this.options.logger.warn('gone users: the groups are behind the log; reading what is stored', { service: this.options.name });
        return;
      }
      await sleep(pause);
    }
  }

  /**
   * Erased users stored before the set was kept per customer (no customer on record): only those
   * whose events can still be on the log (30 days) matter; the rest are left out.
   */
  private async loadLegacy(): Promise<void> {
    const old = await this.options.store.collection<{ _id: string; erased_at: string }>({ name: 'erased_users' });
    const since = new Date(Date.now() - THIRTY_DAYS_MS).toISOString();
    for await (const page of old.findPages({ erased_at: { $gte: since } }, { sort: { _id: 1 }, pageSize: 500 })) for (const d of page) this.legacy.add(d._id);
  }
}

function reachedAll(now: GroupPosition[] | undefined, target: GroupPosition[]): boolean {
  if (!now) return false;
  const handled = new Map(now.map((p) => [p.partition, p.handled]));
  return target.every((t) => (handled.get(t.partition) ?? 0) >= t.end);
}

function decodeOrNull<T>(topic: TopicDefinition<T>, value: string): T | undefined {
  try {
    return decodeEvent(topic, value);
  } catch {
    return undefined;
  }
}

function fromUserEvent(event: UserEvent | undefined): GoneUser | undefined {
  if (!event || (event.type !== 'user.deleted' && event.user.status !== 'deleted')) return undefined;
  const u = event.user;
  return { userId: u.id, customerId: u.customer_id, organizationId: u.organization_id, at: u.deleted_at ?? event.occurred_at, erased: false };
}

function fromRequest(request: UserDataRequest | undefined): GoneUser | undefined {
  if (!request || request.type !== 'erasure.requested') return undefined;
  return { userId: request.user_id, customerId: request.customer_id, organizationId: request.organization_id, at: request.requested_at, erased: true };
}

/** For readers built without the platform (unit tests of a reader): nobody is gone. */
export const NOBODY_GONE: Pick<GoneUsers, 'forCustomer' | 'forOrganization'> = {
  forCustomer: async () => ({ has: () => false, erased: () => false }),
  forOrganization: async () => ({ has: () => false, erased: () => false }),
};
