import { createLogger } from '@wellstream/logging';
import type { ProjectedUser } from '../users/user-projection';
import type { UserProjectionRepository } from '../users/user-projection.repository';
import { DemoSource } from './demo-source';
import { manualClock } from '@wellstream/clock';

const user = (over: Partial<ProjectedUser> = {}): ProjectedUser => ({
  _id: 'u1',
  uid: 'demo-user',
  organization_id: 'o1',
  customer_id: 'c1',
  status: 'active',
  timezone: 'Europe/Berlin',
  timezone_origin: 'profile',
  mobile_token: 't',
  sources: ['demo'],
  detected_sources: [],
  updated_at: '2024-01-01T00:00:00Z',
  ...over,
});

function setup(initial: ProjectedUser) {
  let current = initial;
  const posted: { log_id: string }[][] = [];
  const users = { byId: async () => current, withSource: async () => (current.sources.includes('demo') ? [current] : []) } as unknown as UserProjectionRepository;
  const demo = new DemoSource({
    users,
    ingest: async (_u, body) => void posted.push(body.records as { log_id: string }[]),
    logger: createLogger('test'),
    clock: manualClock('2024-05-10T12:00:00Z'),
    tickMs: 20,
    backfillDays: 2,
  });
  return { demo, posted, set: (u: ProjectedUser) => (current = u) };
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('DemoSource', () => {
  it('backfills the last days and today on start for users with demo connected, then ticks', async () => {
    const { demo, posted } = setup(user());
    await demo.start();
    await wait(10);
    const days = posted.slice(0, 3).map((records) => records.find((r) => r.log_id.startsWith('demo-summary-'))?.log_id);
    expect(days).toEqual(['demo-summary-2024-05-08', 'demo-summary-2024-05-09', 'demo-summary-2024-05-10']);
    await wait(60);
    expect(posted.length).toBeGreaterThan(3);
    await demo.stop();
  });

  it('stops for a user who disconnects demo or is suspended, and restarts on reconnect', async () => {
    const { demo, posted, set } = setup(user());
    await demo.start();
    await wait(30);
    expect(demo.isRunning('u1')).toBe(true);
    const off = user({ sources: [] });
    set(off);
    demo.reconcile(off);
    expect(demo.isRunning('u1')).toBe(false);
    await wait(30);
    const count = posted.length;
    await wait(60);
    expect(posted.length).toBe(count);
    set(user());
    demo.reconcile(user());
    expect(demo.isRunning('u1')).toBe(true);
    const suspended = user({ status: 'suspended' });
    set(suspended);
    demo.reconcile(suspended);
    expect(demo.isRunning('u1')).toBe(false);
    await demo.stop();
  });

  it('does nothing for users without demo', async () => {
    const { demo, posted } = setup(user({ sources: ['polar'] }));
    await demo.start();
    demo.reconcile(user({ sources: ['polar'] }));
    await wait(50);
    expect(posted).toEqual([]);
    await demo.stop();
  });
});
