import { createLogger } from '@wellstream/logging';
import { manualClock } from '@wellstream/clock';
import { DemoSource, DemoUser } from './demo-source';

const user = (over: Partial<DemoUser> = {}): DemoUser => ({ _id: 'u1', status: 'active', timezone: 'Europe/Berlin', connected: true, ...over });

function setup(initial: DemoUser) {
  let current = initial;
  const posted: { log_id: string }[][] = [];
  const demo = new DemoSource({
    userOf: async () => current,
    connectedUsers: async () => (current.connected ? [current._id] : []),
    publish: async (_userId, records) => void posted.push(records as { log_id: string }[]),
    logger: createLogger('test'),
    clock: manualClock('2024-05-10T12:00:00Z'),
    tickMs: 20,
    backfillDays: 2,
  });
  return { demo, posted, set: (u: DemoUser) => (current = u) };
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
    const off = user({ connected: false });
    set(off);
    await demo.reconcileUser('u1');
    expect(demo.isRunning('u1')).toBe(false);
    await wait(30);
    const count = posted.length;
    await wait(60);
    expect(posted.length).toBe(count);
    set(user());
    await demo.reconcileUser('u1');
    expect(demo.isRunning('u1')).toBe(true);
    set(user({ status: 'suspended' }));
    await demo.reconcileUser('u1');
    expect(demo.isRunning('u1')).toBe(false);
    await demo.stop();
  });

  it('does nothing for users without demo', async () => {
    const { demo, posted } = setup(user({ connected: false }));
    await demo.start();
    await demo.reconcileUser('u1');
    await wait(50);
    expect(posted).toEqual([]);
    await demo.stop();
  });
});
