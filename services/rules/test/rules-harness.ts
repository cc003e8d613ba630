/**
 * Test harness for the rules use cases: the SQLite store in memory, an embedded event log in a
 * temp dir, a fake clock, and builders for the events the service consumes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LogMessage } from '@wellstream/bus';
import { EmbeddedEventLog } from '@wellstream/bus/adapters';
import type { MetricOrigin } from '@wellstream/catalog';
import { CustomerEvent, customerEventsTopic, decodeEvent, RuleEvent, UserEvent, UserSnapshot } from '@wellstream/contracts';
import { createLogger } from '@wellstream/logging';
import { Outbox } from '@wellstream/outbox';
import { SqliteDocumentStore } from '@wellstream/store/adapters';
import { testRecord } from '@wellstream/testing';
import { DataPointRepository } from '../src/data-points/data-point.repository';
import type { EvaluationDeps } from '../src/evaluation/evaluate-rules/evaluate-rules.usecase';
import { OrganizationProjectionRepository } from '../src/organizations/organization-projection.repository';
import { rulesFeature } from '../src/organizations/rules-feature';
import type { RuleUseCaseDeps } from '../src/rules/rule-deps';
import { RuleRepository } from '../src/rules/rule.repository';
import { userDirectory } from '../src/users/user-directory';
import { readYourWrites } from '@wellstream/bus';
import { UserProjectionRepository } from '../src/users/user-projection.repository';

export interface Harness {
  clock: { now: Date; advance(ms: number): Date; set(iso: string): Date };
  store: SqliteDocumentStore;
  eventLog: EmbeddedEventLog;
  rules: RuleRepository;
  points: DataPointRepository;
  users: UserProjectionRepository;
  organizations: OrganizationProjectionRepository;
  ruleDeps: RuleUseCaseDeps;
  evaluation: EvaluationDeps;
  /** Rule events published so far, read back from the log. */
  publishedRuleEvents(): Promise<RuleEvent[]>;
  close(): Promise<void>;
}

export const HOUR = 3600_000;
export const DAY = 24 * HOUR;

export async function openHarness(options: { globallyEnabled?: boolean } = {}): Promise<Harness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rules-test-'));
  const logger = createLogger('rules-test');
  const eventLog = new EmbeddedEventLog({ file: path.join(dir, 'events.db'), logger });
  await eventLog.ensureTopic(customerEventsTopic.spec);
  const store = new SqliteDocumentStore(':memory:');
  const rules = await RuleRepository.open(store);
  const points = await DataPointRepository.open(store);
  const users = await UserProjectionRepository.open(store);
  const organizations = await OrganizationProjectionRepository.open(store);
  const feature = rulesFeature(organizations, options.globallyEnabled ?? true);
  const outbox = await Outbox.open(store, { eventLog, logger, drainMs: 60_000 });
  const clock = {
    now: new Date('2025-03-01T08:00:00.000Z'),
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms);
      return clock.now;
    },
    set(iso: string) {
      clock.now = new Date(iso);
      return clock.now;
    },
  };
  return {
    clock,
    store,
    eventLog,
    rules,
    points,
    users,
    organizations,
    ruleDeps: { rules, points, feature, users: userDirectory(users, readYourWrites({ groupPositions: async () => [] }, { groupId: 'rules.users', topic: 'users', maxWaitMs: 0 })), clock: { now: () => clock.now } },
    evaluation: { rules, points, feature, outbox },
    async publishedRuleEvents() {
      await outbox.drain();
      const seen: LogMessage[] = [];
      // Stop once caught up, not on a timer: a reader resting on the long-read budget takes timers too.
      let caughtUp!: () => void;
      const done = new Promise<void>((resolve) => (caughtUp = resolve));
      const sub = await eventLog.tail({ topic: customerEventsTopic.spec.name, handle: async (m) => void seen.push(m), onCaughtUp: () => caughtUp() });
      await done;
      await sub.stop();
      return seen.map((m) => decodeEvent(customerEventsTopic, m.value)).filter((e): e is RuleEvent => e.event_type === 'rule');
    },
    async close() {
      await outbox.stop();
      await eventLog.close();
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const ORG = 'org_test';
export const CUSTOMER = 'cus_test';

export function userSnapshot(over: Partial<UserSnapshot> = {}): UserSnapshot {
  return {
    id: 'usr_1',
    uid: 'patient-1',
    organization_id: ORG,
    customer_id: CUSTOMER,
    status: 'active',
    timezone: null,
    timezone_origin: 'profile',
    country_code: null,
    mobile_token: 'mob_1',
    sources: [],
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    deleted_at: null,
    ...over,
  };
}

export const userEvent = (type: UserEvent['type'], over: Partial<UserSnapshot> = {}): UserEvent => ({
  type,
  occurred_at: over.updated_at ?? '2025-01-01T00:00:00.000Z',
  user: userSnapshot(over),
});

export const owner = { customerId: CUSTOMER, organizationId: ORG, uid: 'patient-1' };

export const weightRule = (over: Record<string, unknown> = {}) => ({
  type: 'user/missing_data',
  window: 'P3D',
  message: 'Please weigh yourself',
  metric: { type: 'body_weight' },
  threshold: { value: 1, comparator: 'less_than' },
  ...over,
});

let recordSeq = 0;

/** A `data` event as records publishes it: the payload is the record. */
export function dataEvent(
  startTime: Date | string,
  metrics: { type: string; unit?: string; value?: number; origin?: MetricOrigin }[],
  over: { recordId?: string; userId?: string; deleted?: boolean } = {},
): CustomerEvent {
  const id = over.recordId ?? `rec_${++recordSeq}`;
  const start = typeof startTime === 'string' ? startTime : startTime.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    id: `evt_${id}_${recordSeq}`,
    event_type: 'data',
    key: id,
    customer_id: CUSTOMER,
    organization_id: ORG,
    user_id: over.userId ?? 'usr_1',
    resource: 'measurement',
    start_time: start,
    created_at: new Date().toISOString(),
    payload: testRecord('measurement', {
      id,
      user: { uid: 'patient-1', user_id: over.userId ?? 'usr_1', organization_id: ORG },
      start_time: start,
      metrics: metrics.map((m) => ({ value: 80, unit: 'kg', origin: 'device', ...m })),
      deleted_at: over.deleted ? new Date().toISOString() : null,
    }),
  };
}
