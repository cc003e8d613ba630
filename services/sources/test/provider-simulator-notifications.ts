/**
 * The provider contract's cases for notifications that name objects and for signed deliveries,
 * run by provider-simulator.suite.ts for the providers whose options ask for them: an object's
 * notification fetches that object whatever its age (a workout logged 8 days late, a sleep edited
 * 10 days later and its recovery), a signed retry ten minutes late is accepted and one past two
 * hours refused, and a delivery repeated byte for byte is answered but not acted on again.
 */
import { eventually } from '@wellstream/testing';
import type { SimulatorSuiteOptions } from './provider-simulator.suite';
import type { ProviderSimulator, SimulatedUser } from './simulators/provider-simulator';

const DAY = 24 * 3600 * 1000;

type User = { id: string; uid: string };

export interface NotificationCaseContext {
  sim(): ProviderSimulator;
  webhookUrl(): string;
  backfillDays: number;
  /** Records of one type the user has from this source with start_time in [from, to). */
  records(user: User, recordType: string, from: Date, to: Date): Promise<any[]>;
  /** A user connected with `days` of data, their backfill done. */
  connected(label: string, days: number): Promise<{ user: User; who: SimulatedUser; now: Date }>;
}

export function notificationCases(o: SimulatorSuiteOptions, t: NotificationCaseContext): void {
  /** log_id → checksum of every record the user has from this source in [from, to). */
  async function stored(user: User, recordTypes: string[], from: Date, to: Date): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const type of recordTypes) for (const r of await t.records(user, type, from, to)) out.set(r.log_id, r.checksum);
    return out;
  }

  if (o.oldObjects) {
    it('fetches the object a notification names, whatever its age: logged 8 days late, edited 10 days later', async () => {
      const spec = o.oldObjects!;
      const sim = t.sim();
      const { user, who, now } = await t.connected('old-objects', t.backfillDays + 2);
      const from = new Date(now.getTime() - (t.backfillDays + 3) * DAY);
      const to = new Date(now.getTime() + DAY);
      const recordTypes = Object.keys(sim.expectedCounts(who, from, to));
      const before = await stored(user, recordTypes, from, to);
      // Both far outside what a poll re-reads (a day before the last sync) and a live window around now.
      const late = sim.addData(who, spec.late, new Date(now.getTime() - 8 * DAY));
      expect(await sim.notify!(t.webhookUrl(), who, spec.late)).toBeLessThan(300);
      const edited = sim.editData!(who, spec.edited[0], new Date(now.getTime() - 10 * DAY));
      for (const resource of spec.edited) expect(await sim.notify!(t.webhookUrl(), who, resource)).toBeLessThan(300);
      expect(edited.length).toBe(spec.edited.length);
      const t0 = Date.now();
      await eventually(async () => {
        const after = await stored(user, recordTypes, from, to);
        const missing = [...late, ...edited].filter((id) => !after.has(id) || after.get(id) === before.get(id));
        if (missing.length > 0) throw new Error(`not fetched: ${missing.join(', ')}`);
        return true;
      }, 30_000, 300);
      console.log(`[contract ${sim.type} ${o.mode}] old objects on REST ${Date.now() - t0} ms after their notifications`);
    }, 150_000);
  }

  if (o.signedRetries) {
    it('accepts a signed retry ten minutes late, refuses one past two hours, and drops a repeated delivery', async () => {
      const sim = t.sim();
      const { user, who } = await t.connected('retries', 2);
      const r = o.liveResource;
      const have = async (id: string) => (await t.records(user, r.path, new Date(Date.now() - 2 * DAY), new Date(Date.now() + DAY))).some((x) => x.log_id === id);
      // The first attempt met an outage; the provider's retry, signed ten minutes ago, must count.
      const [retried] = sim.addData(who, r.name, new Date(Date.now() - 3 * 3_600_000));
      expect(await sim.notifyRetry!(t.webhookUrl(), who, r.name, 10 * 60_000)).toBe(200);
      await eventually(() => have(retried), 30_000, 300);
      // Past the retries' hour and its margin, a signed delivery is a replay: 401.
      sim.addData(who, r.name, new Date(Date.now() - 5 * 3_600_000));
      expect(await sim.notifyRetry!(t.webhookUrl(), who, r.name, 2 * 3_600_000 + 5 * 60_000)).toBe(401);
      // The same delivery twice (its event id, timestamp and signature): answered, fetched once.
      const [first] = sim.addData(who, r.name, new Date(Date.now() - 2 * 3_600_000));
      expect(await sim.notify!(t.webhookUrl(), who, r.name)).toBe(200);
      await eventually(() => have(first), 30_000, 300);
      // Read by its id (a poll reads pages, never one object): the notification's fetch.
      await eventually(async () => sim.objectFetches!(who, first) > 0, 10_000, 100);
      const fetched = sim.objectFetches!(who, first);
      expect(await sim.redeliver!()).toBe(200);
      // A later notification's object arrives only after whatever the repeat had queued ran.
      const [second] = sim.addData(who, r.name, new Date(Date.now() - 3_600_000));
      expect(await sim.notify!(t.webhookUrl(), who, r.name)).toBe(200);
      await eventually(() => have(second), 30_000, 300);
      expect(sim.objectFetches!(who, first)).toBe(fetched);
    }, 150_000);
  }
}
