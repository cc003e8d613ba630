/**
 * The retention sweep on a moved clock, against the embedded store: a user deleted less than
 * WELLSTREAM_RETENTION_DAYS ago stays; past it, the user is erased (document gone, erasure kept,
 * one erasure request and audit entry on the outbox), a bounded number per run.
 */
import { manualClock } from '@wellstream/clock';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import type { Outbox } from '@wellstream/outbox';
import { UserRepository } from '../../users/user.repository';
import { newUser } from '../../users/user';
import { AuditLogRepository } from '../audit/audit-log.repository';
import { ErasureRepository, erasureKey } from '../erasure/erasure.repository';
import { ExportRepository } from '../exports/export.repository';
import type { LifecycleDeps } from '../lifecycle.deps';
import { idempotentAnswers } from '@wellstream/runtime';
import { RETENTION_USERS_PER_RUN, sweepRetention } from './retention-sweep';

const DAY = 24 * 3600 * 1000;

async function depsOver(store: SqliteDocumentStore, outbox: Outbox, clock: ReturnType<typeof manualClock>): Promise<LifecycleDeps> {
  return {
    users: await UserRepository.open(store),
    exports: await ExportRepository.open(store),
    audit: await AuditLogRepository.open(store),
    erasures: await ErasureRepository.open(store),
    idempotentAnswers: await idempotentAnswers(store),
    outbox,
    eventLog: {} as never,
    clock,
    linkKey: 'k'.repeat(40),
    linkTtlSeconds: 60,
    publicUrl: 'http://127.0.0.1:8080',
    retentionDays: 2557,
  };
}

describe('retention sweep', () => {
  let store: SqliteDocumentStore;
  afterAll(() => store?.close());

  it('erases deleted users once their retention has passed, and only them', async () => {
    store = new SqliteDocumentStore(':memory:');
    const clock = manualClock('2026-01-01T00:00:00Z');
    const written: { topic: string }[][] = [];
    const outbox = { message: (topic: { spec: { name: string } }) => ({ topic: topic.spec.name }), write: async (m: { topic: string }[], change: () => Promise<unknown>) => (written.push(m), change()) } as unknown as Outbox;
    const deps = await depsOver(store, outbox, clock);
    const users = deps.users;
    const make = async (uid: string, deletedAt: string | null) => {
      const u = newUser({ uid, organizationId: 'org_1', customerId: 'cus_1', location: { timezone: null, country_code: null }, now: '2025-12-01T00:00:00Z' });
      await users.insert(deletedAt ? { ...u, status: 'deleted', deleted_at: deletedAt } : u);
      return u;
    };
    const old = await make('old', '2025-12-31T00:00:00Z');
    const recent = await make('recent', '2026-06-01T00:00:00Z');
    const active = await make('active', null);

    expect(await sweepRetention(deps)).toBe(0);
    clock.advance(2557 * DAY - 2 * DAY);
    expect(await sweepRetention(deps)).toBe(0);
    clock.advance(2 * DAY);
    expect(await sweepRetention(deps)).toBe(1);
    expect(await users.findById(old.id)).toBeNull();
    expect(await deps.erasures.byKey(erasureKey('org_1', 'old'))).toMatchObject({ user_id: old.id, reason: 'retention', request_id: expect.stringMatching(/^ret_/) });
    expect(written).toEqual([[{ topic: 'user-data-requests' }, { topic: 'audit-log' }]]);
    expect(await sweepRetention(deps)).toBe(0);
    clock.advance(365 * DAY);
    expect(await sweepRetention(deps)).toBe(1);
    expect(await users.findById(recent.id)).toBeNull();
    expect(await users.findById(active.id)).not.toBeNull();
    expect(RETENTION_USERS_PER_RUN).toBeLessThanOrEqual(50);
  });

  it('erases a user once when two sweeps (two replicas) find it together', async () => {
    const clock = manualClock('2036-01-01T00:00:00Z');
    const written: unknown[] = [];
    const outbox = { message: (topic: { spec: { name: string } }) => ({ topic: topic.spec.name }), write: async (m: unknown[], change: () => Promise<unknown>) => (written.push(m), change()) } as unknown as Outbox;
    const users = await UserRepository.open(store);
    const deps = { ...(await depsOver(store, outbox, clock)), users };
    const u = newUser({ uid: 'twice', organizationId: 'org_2', customerId: 'cus_1', location: { timezone: null, country_code: null }, now: '2026-01-01T00:00:00Z' });
    await users.insert({ ...u, status: 'deleted', deleted_at: '2026-01-02T00:00:00Z' });
    const results = await Promise.all([sweepRetention(deps), sweepRetention(deps)]);
    expect(results.sort()).toEqual([0, 1]);
    expect(written).toHaveLength(1);
  });
});
