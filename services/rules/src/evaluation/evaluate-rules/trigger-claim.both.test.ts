/**
 * The trigger claim between two replicas: two evaluations over two connections to one database
 * (one store in the embedded runtime) judge the same armed rule at the same moment, round after
 * round (the rule re-armed in between, as when its condition stops holding); exactly one raises
 * the episode's event each time, and exactly that many events are published.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EmbeddedEventLog } from '@wellstream/bus/adapters';
import { customerEventsTopic, decodeEvent } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import { Outbox } from '@wellstream/outbox';
import type { DocumentStore } from '@wellstream/store';
import { replicaStores } from '@wellstream/testing';
import { DataPointRepository } from '../../data-points/data-point.repository';
import type { RuleDoc } from '../../rules/rule';
import { RuleRepository, TRIGGER_CLAIMS_COLLECTION, triggerClaimId } from '../../rules/rule.repository';
import { evaluateRule, EvaluationDeps } from './evaluate-rules.usecase';

jest.setTimeout(120_000);

const ROUNDS = 50;
const DAY = 24 * 3600_000;
const replicas = replicaStores('triggerclaim');
const logger = createLogger('rules-test');

const armedRule = (): RuleDoc => ({
  _id: 'rul_race',
  user_id: 'usr_1',
  uid: 'patient-1',
  organization_id: 'org_test',
  customer_id: 'cus_test',
  type: 'user/missing_data',
  window: 'P3D',
  message: 'Please weigh yourself',
  metric: { type: 'body_weight', sub_type: null, unit: null, origin: null },
  threshold: { value: 1, comparator: 'less_than' },
  window_ms: 3 * DAY,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  watching_since: '2025-01-01T00:00:00.000Z',
  armed_at: '2025-01-04T00:00:00.000Z',
  revision: 1,
  triggered: false,
  triggered_at: null,
  last_event_id: null,
});

describe(`trigger claim between two replicas (${replicas.label})`, () => {
  let dir: string;
  let eventLog: EmbeddedEventLog;
  const outboxes: Outbox[] = [];
  let stores: DocumentStore[] = [];
  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rules-race-'));
    eventLog = new EmbeddedEventLog({ file: path.join(dir, 'events.db'), logger });
    await eventLog.ensureTopic(customerEventsTopic.spec);
  });
  afterEach(async () => {
    for (const o of outboxes.splice(0)) await o.stop();
    await replicas.close();
    await eventLog.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function published(): Promise<number> {
    for (const o of outboxes) await o.drain();
    let n = 0;
    let caughtUp!: () => void;
    const done = new Promise<void>((resolve) => (caughtUp = resolve));
    const sub = await eventLog.tail({ topic: customerEventsTopic.spec.name, handle: async (m) => void (decodeEvent(customerEventsTopic, m.value).event_type === 'rule' && n++), onCaughtUp: () => caughtUp() });
    await done;
    await sub.stop();
    return n;
  }

  async function openReplicas(): Promise<EvaluationDeps[]> {
    const deps: EvaluationDeps[] = [];
    stores = replicas.open();
    for (const store of stores) {
      const outbox = await Outbox.open(store, { eventLog, logger, drainMs: 60_000 });
      outboxes.push(outbox);
      deps.push({ rules: await RuleRepository.open(store), points: await DataPointRepository.open(store), feature: { enabledFor: async () => true }, outbox });
    }
    await deps[0].rules.insert(armedRule());
    return deps;
  }

  /** The trigger claims, as the first replica's store holds them. */
  const claims = () => stores[0].collection<{ _id: string; event_id: string; triggered_at: string }>({ name: TRIGGER_CLAIMS_COLLECTION });

  it(`raises each episode's event from exactly one of two racing replicas, ${ROUNDS} rounds in a row`, async () => {
    const deps = await openReplicas();
    let now = Date.parse('2025-03-01T08:00:00.000Z');
    const winners: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Each replica read the armed rule before either claimed it (their passes run at once).
      const read = await Promise.all(deps.map((d) => d.rules.findForUser('usr_1', 'rul_race')));
      const events = await Promise.all(deps.map((d, i) => evaluateRule(d, read[i]!, new Date(now))));
      winners.push(events.filter(Boolean).length);
      // The condition stopped holding (a weight came, then aged out of the window): re-armed.
      const rule = (await deps[0].rules.findForUser('usr_1', 'rul_race'))!;
      await deps[0].rules.rearm(rule);
      now += 60_000;
    }
    expect(winners).toEqual(Array(ROUNDS).fill(1));
    expect(await published()).toBe(ROUNDS);
    // Each claim went once its event was on its way: nothing piles up.
    expect(await (await claims()).count({})).toBe(0);
  });

  it('raises nothing from a replica that read the rule before the other replica raised its episode', async () => {
    const deps = await openReplicas();
    const stale = (await deps[1].rules.findForUser('usr_1', 'rul_race'))!;
    const now = new Date('2025-03-01T08:00:00.000Z');
    expect(await evaluateRule(deps[0], stale, now)).not.toBeNull();
    expect(await evaluateRule(deps[1], stale, now)).toBeNull();
    expect(await published()).toBe(1);
  });

  it('marks the rule for a claimer that died before marking it, so the episode can end and the next one be raised', async () => {
    const deps = await openReplicas();
    const rule = (await deps[0].rules.findForUser('usr_1', 'rul_race'))!;
    await (await claims()).insertOne({ _id: triggerClaimId(rule), event_id: 'evt_gone', triggered_at: '2025-03-01T07:59:00.000Z' });
    expect(await evaluateRule(deps[1], rule, new Date('2025-03-01T08:00:00.000Z'))).toBeNull();
    const marked = (await deps[0].rules.findForUser('usr_1', 'rul_race'))!;
    expect(marked).toMatchObject({ triggered: true, last_event_id: 'evt_gone', triggered_at: '2025-03-01T07:59:00.000Z' });
    await deps[0].rules.rearm(marked);
    const next = (await deps[1].rules.findForUser('usr_1', 'rul_race'))!;
    expect(await evaluateRule(deps[1], next, new Date('2025-03-01T09:00:00.000Z'))).not.toBeNull();
  });
});
