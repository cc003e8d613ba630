/**
 * Rule evaluation with a controllable clock: the use cases on the SQLite store (in memory) and an
 * embedded event log, no HTTP.
 */
import type { EventLog } from '@wellstream/bus';
import { unshared } from '@wellstream/bus';
import { createLogger } from '@wellstream/logging';
import { Outbox } from '@wellstream/outbox';
import { dataEvent, DAY, HOUR, Harness, openHarness, ORG, owner, userEvent, weightRule } from '../../../test/rules-harness';
import { recordDataPoints } from '../../data-points/record-data-points/record-data-points.usecase';
import { createRule } from '../../rules/create-rule/create-rule.usecase';
import { deleteRule } from '../../rules/delete-rule/delete-rule.usecase';
import { updateRule } from '../../rules/update-rule/update-rule.usecase';
import { applyUserEvent } from '../../users/apply-user-event/apply-user-event.usecase';
import { evaluateAllRules, evaluateUserRules } from './evaluate-rules.usecase';

let h: Harness;

beforeEach(async () => {
  h = await openHarness();
  await applyUserEvent({ users: h.users, rules: h.rules, points: h.points }, userEvent('user.created'));
});
afterEach(() => h.close());

/** What the data consumer does: keep the points, then judge the user's rules watching them. */
async function receive(event: ReturnType<typeof dataEvent>) {
  const changed = await recordDataPoints({ rules: h.rules, points: h.points }, event, unshared);
  return evaluateUserRules(h.evaluation, event.user_id, changed, h.clock.now);
}

describe('a missing-weight rule (fewer than 1 body_weight in P3D)', () => {
  it('does not trigger before it has watched one full window, then triggers once', async () => {
    const rule = await createRule(h.ruleDeps, owner, weightRule());
    const t0 = h.clock.now;

    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(0);
    h.clock.advance(3 * DAY - 1000);
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(0);

    h.clock.advance(1000); // exactly one window after creation
    const first = await evaluateAllRules(h.evaluation, h.clock.now);
    expect(first.events).toHaveLength(1);

    // Still no weight: the same episode, no second event (also not on the next schedule ticks).
    h.clock.advance(HOUR);
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(0);
    h.clock.advance(2 * DAY);
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(0);

    const published = await h.publishedRuleEvents();
    expect(published).toHaveLength(1);
    const e = published[0];
    expect(e).toMatchObject({
      event_type: 'rule',
      key: e.id,
      user_id: 'usr_1',
      customer_id: 'cus_test',
      organization_id: ORG,
      created_at: new Date(t0.getTime() + 3 * DAY).toISOString(),
    });
    expect(e.payload).toEqual({
      user: { uid: 'patient-1', user_id: 'usr_1', organization_id: ORG },
      rule: {
        id: rule.id,
        type: 'user/missing_data',
        window: 'P3D',
        message: 'Please weigh yourself',
        metric: { type: 'body_weight', sub_type: null, unit: null, origin: null },
        threshold: { value: 1, comparator: 'less_than' },
      },
      data: [{ type: 'body_weight', data: { count: 0 } }],
      created_at: e.created_at,
    });
  });

  it('stays quiet while weights arrive, re-arms when a weight arrives after a trigger, and triggers again in the next episode', async () => {
    await createRule(h.ruleDeps, owner, weightRule());
    h.clock.advance(2 * DAY);
    await receive(dataEvent(h.clock.now, [{ type: 'body_weight' }]));
    h.clock.advance(1 * DAY); // armed; the weight of a day ago is in the window
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(0);

    h.clock.advance(2 * DAY); // the weight is exactly 3 days old: out of (now − P3D, now]
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(1);

    h.clock.advance(HOUR);
    const weigh = await receive(dataEvent(h.clock.now, [{ type: 'body_weight' }]));
    expect(weigh.events).toHaveLength(0);
    const [state] = await h.rules.listForUser('usr_1');
    expect(state.triggered).toBe(false); // re-armed by the new weight

    h.clock.advance(3 * DAY - 1000);
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(0);
    h.clock.advance(1000);
    const again = await evaluateAllRules(h.evaluation, h.clock.now);
    expect(again.events).toHaveLength(1);
    expect(again.events[0].payload.data).toEqual([{ type: 'body_weight', data: { count: 0 } }]);
    expect(await h.publishedRuleEvents()).toHaveLength(2);
  });

  it('counts only matching data: other metrics, other users, other units or origins do not count', async () => {
    await createRule(h.ruleDeps, owner, weightRule({ metric: { type: 'body_weight', unit: 'kg', origin: 'manual' } }));
    h.clock.advance(DAY);
    await receive(dataEvent(h.clock.now, [{ type: 'steps', unit: 'count' }]));
    await receive(dataEvent(h.clock.now, [{ type: 'body_weight', unit: 'lb', origin: 'manual' }]));
    await receive(dataEvent(h.clock.now, [{ type: 'body_weight', unit: 'kg', origin: 'device' }]));
    await receive(dataEvent(h.clock.now, [{ type: 'body_weight', unit: 'kg', origin: 'manual' }], { userId: 'usr_other' }));
    h.clock.advance(2 * DAY);
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(1);
  });

  it('forgets the points of a deleted record and replaces the points of an updated one', async () => {
    await createRule(h.ruleDeps, owner, weightRule());
    h.clock.advance(2 * DAY);
    await receive(dataEvent(h.clock.now, [{ type: 'body_weight' }], { recordId: 'rec_a' }));
    await receive(dataEvent(h.clock.now, [{ type: 'body_weight' }], { recordId: 'rec_b' }));
    expect(await h.points.points.count({})).toBe(2);
    // rec_a updated: no longer a weight; rec_b deleted.
    await receive(dataEvent(h.clock.now, [{ type: 'body_fat', unit: 'percent' }], { recordId: 'rec_a' }));
    await receive(dataEvent(h.clock.now, [{ type: 'body_weight' }], { recordId: 'rec_b', deleted: true }));
    expect(await h.points.points.count({})).toBe(0);
    h.clock.advance(DAY);
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(1);
  });

  it('counts a record with several matching entries once', async () => {
    await createRule(h.ruleDeps, owner, weightRule({ threshold: { value: 2, comparator: 'less_than' } }));
    h.clock.advance(2 * DAY);
    await receive(dataEvent(h.clock.now, [{ type: 'body_weight', unit: 'kg' }, { type: 'body_weight', unit: 'lb' }]));
    h.clock.advance(DAY);
    const r = await evaluateAllRules(h.evaluation, h.clock.now);
    expect(r.events).toHaveLength(1);
    expect(r.events[0].payload.data).toEqual([{ type: 'body_weight', data: { count: 1 } }]);
  });
});

describe('other comparators', () => {
  it('greather_than triggers on new data once armed, and equal_to compares exactly', async () => {
    await createRule(h.ruleDeps, owner, {
      ...weightRule({ window: 'PT12H', metric: { type: 'blood_glucose', unit: 'mg/dl' }, threshold: { value: 2, comparator: 'greather_than' } }),
    });
    await createRule(h.ruleDeps, owner, weightRule({ window: 'PT12H', metric: { type: 'blood_glucose' }, threshold: { value: 1, comparator: 'equal_to' } }));
    h.clock.advance(12 * HOUR);
    const events = [];
    for (let i = 0; i < 3; i++) {
      h.clock.advance(1000);
      events.push(...(await receive(dataEvent(h.clock.now, [{ type: 'blood_glucose', unit: 'mg/dl' }]))).events);
    }
    // equal_to 1 fired on the first reading; greather_than 2 on the third.
    expect(events.map((e) => (e.payload.rule as { threshold: { comparator: string } }).threshold.comparator)).toEqual(['equal_to', 'greather_than']);
    expect(events.map((e) => e.payload.data)).toEqual([[{ type: 'blood_glucose', data: { count: 1 } }], [{ type: 'blood_glucose', data: { count: 3 } }]]);
  });
});

describe('state and lifecycle', () => {
  it('raises nothing while the feature is off for the organization', async () => {
    await createRule(h.ruleDeps, owner, weightRule());
    await h.organizations.apply({
      id: ORG,
      customer_id: 'cus_test',
      name: 'Org',
      settings: { rules_enabled: false, history_days: 183 },
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-02T00:00:00.000Z',
    });
    // An older snapshot redelivered does not switch it back on.
    await h.organizations.apply({
      id: ORG,
      customer_id: 'cus_test',
      name: 'Org',
      settings: { rules_enabled: null, history_days: 183 },
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:00:00.000Z',
    });
    expect((await h.organizations.find(ORG))?.rules_enabled).toBe(false);
    h.clock.advance(4 * DAY);
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(0);
  });

  it('keeps a claimed trigger while the event log is down and publishes its event once it is back', async () => {
    await createRule(h.ruleDeps, owner, weightRule());
    h.clock.advance(3 * DAY);
    const log = { down: true };
    const flaky = new Proxy(h.eventLog, {
      get: (target, prop) =>
        prop === 'publish'
          ? async (...args: Parameters<EventLog['publish']>) => (log.down ? Promise.reject(new Error('log down')) : target.publish(...args))
          : Reflect.get(target, prop, target),
    });
    const outbox = await Outbox.open(h.store, { eventLog: flaky, logger: createLogger('rules-test'), drainMs: 60_000 });
    expect((await evaluateAllRules({ ...h.evaluation, outbox }, h.clock.now)).events).toHaveLength(1);
    await expect(outbox.drain()).rejects.toThrow('log down');
    expect((await h.rules.listForUser('usr_1'))[0].triggered).toBe(true);
    log.down = false;
    await outbox.drain();
    await outbox.stop();
    expect(await h.publishedRuleEvents()).toHaveLength(1);
    // The episode was announced once: the next pass raises nothing new.
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(0);
  });

  it('two evaluations at the same time (two replicas) raise one event', async () => {
    await createRule(h.ruleDeps, owner, weightRule());
    h.clock.advance(3 * DAY);
    const [a, b] = await Promise.all([evaluateAllRules(h.evaluation, h.clock.now), evaluateAllRules(h.evaluation, h.clock.now)]);
    expect(a.events.length + b.events.length).toBe(1);
  });

  it('a criteria change restarts the observation; a message-only change keeps it', async () => {
    const rule = await createRule(h.ruleDeps, owner, weightRule());
    h.clock.advance(2 * DAY);
    await updateRule(h.ruleDeps, owner, rule.id, weightRule({ message: 'Step on the scale' }));
    h.clock.advance(DAY);
    const fired = await evaluateAllRules(h.evaluation, h.clock.now);
    expect(fired.events).toHaveLength(1);
    expect((fired.events[0].payload.rule as { message: string }).message).toBe('Step on the scale');

    await updateRule(h.ruleDeps, owner, rule.id, weightRule({ window: 'P2D' }));
    h.clock.advance(2 * DAY - 1000);
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(0);
    h.clock.advance(1000);
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(1);
  });

  it('a suspended or deleted user loses all rules, their state and points', async () => {
    await createRule(h.ruleDeps, owner, weightRule());
    await createRule(h.ruleDeps, owner, weightRule({ metric: { type: 'steps' } }));
    await receive(dataEvent(h.clock.now, [{ type: 'steps', unit: 'count' }]));
    expect(await h.points.points.count({ user_id: 'usr_1' })).toBe(1);
    const deps = { users: h.users, rules: h.rules, points: h.points };
    const r = await applyUserEvent(deps, userEvent('user.suspended', { status: 'suspended', updated_at: '2025-03-01T09:00:00.000Z' }));
    expect(r.rulesDeleted).toBe(2);
    expect(await h.rules.listForUser('usr_1')).toEqual([]);
    expect(await h.points.points.count({ user_id: 'usr_1' })).toBe(0);
    h.clock.advance(4 * DAY);
    expect((await evaluateAllRules(h.evaluation, h.clock.now)).events).toHaveLength(0);

    // An older snapshot redelivered does not bring the user back to active.
    await applyUserEvent(deps, userEvent('user.updated', { updated_at: '2025-02-01T00:00:00.000Z' }));
    expect((await h.users.findById('usr_1'))?.status).toBe('suspended');
  });
});

describe('data points kept', () => {
  it('are kept only for watched metrics and dropped when no rule watches the metric any more', async () => {
    await receive(dataEvent(h.clock.now, [{ type: 'body_weight' }]));
    expect(await h.points.points.count({})).toBe(0); // nobody watches yet
    const a = await createRule(h.ruleDeps, owner, weightRule());
    const b = await createRule(h.ruleDeps, owner, weightRule({ window: 'P1D' }));
    await receive(dataEvent(h.clock.now, [{ type: 'body_weight' }, { type: 'steps', unit: 'count' }]));
    expect(await h.points.points.count({})).toBe(1);
    await deleteRule(h.ruleDeps, owner, a.id);
    expect(await h.points.points.count({})).toBe(1); // b still watches body_weight
    await updateRule(h.ruleDeps, owner, b.id, weightRule({ metric: { type: 'steps' } }));
    expect(await h.points.points.count({})).toBe(0);
  });
});
