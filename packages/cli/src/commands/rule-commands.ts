/**
 * `wellstream rules list|get|create|update|delete`: a user's adherence rules (the feature is off
 * unless the operator enables it for the organization; until then the API refuses the calls).
 * create takes every field as a flag; update replaces the rule with its current fields overridden
 * by the flags given, since the API's PUT takes the whole rule.
 */
import type { Schemas } from '@wellstream/sdk';
import { CliFailure, EXIT_USAGE } from '../cli-io';
import { printJson, printTable } from '../output';
import type { Session } from '../session';

type RuleInput = Schemas['RuleInput'];

export interface RuleFlags {
  user?: string;
  type?: string;
  window?: string;
  message?: string;
  metric?: string;
  unit?: string;
  origin?: string;
  threshold?: string;
  comparator?: string;
}

const COLUMNS = ['id', 'type', 'window', 'metric.type', 'threshold.comparator', 'threshold.value', 'message'];

function userOf(flags: RuleFlags): string {
  if (!flags.user) throw new CliFailure('rules commands need --user <uid>', EXIT_USAGE);
  return flags.user;
}

function thresholdOf(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new CliFailure(`--threshold must be a number, got "${value}"`, EXIT_USAGE);
  return n;
}

/** The flags over `base`; `any` for --origin or --unit means null (any origin, any unit). */
function ruleOf(flags: RuleFlags, base: Partial<RuleInput> = {}): RuleInput {
  const orNull = (v: string | undefined, current: string | null | undefined) => (v === undefined ? current : v === 'any' ? null : v);
  return {
    type: (flags.type ?? base.type ?? 'user/missing_data') as RuleInput['type'],
    window: flags.window ?? base.window ?? '',
    message: flags.message ?? base.message ?? '',
    metric: {
      ...base.metric,
      type: (flags.metric ?? base.metric?.type) as RuleInput['metric']['type'],
      unit: orNull(flags.unit, base.metric?.unit),
      origin: orNull(flags.origin, base.metric?.origin) as RuleInput['metric']['origin'],
    },
    threshold: {
      value: flags.threshold !== undefined ? thresholdOf(flags.threshold) : (base.threshold?.value as number),
      comparator: (flags.comparator ?? base.threshold?.comparator) as RuleInput['threshold']['comparator'],
    },
  };
}

function show(s: Session, value: unknown, rows: Record<string, unknown>[]): void {
  if (s.json) printJson(s.io, value);
  else printTable(s.io, rows, COLUMNS, s.wide);
}

export async function rulesList(s: Session, flags: RuleFlags): Promise<void> {
  const page = await s.client.rules.list(s.organization(), userOf(flags));
  show(s, page, page.data as never);
}

export async function rulesGet(s: Session, ruleId: string, flags: RuleFlags): Promise<void> {
  const rule = await s.client.rules.get(s.organization(), userOf(flags), ruleId);
  show(s, rule, [rule as never]);
}

export async function rulesCreate(s: Session, flags: RuleFlags): Promise<void> {
  const missing = (['window', 'message', 'metric', 'threshold', 'comparator'] as const).filter((k) => flags[k] === undefined);
  if (missing.length) throw new CliFailure(`rules create needs ${missing.map((k) => `--${k}`).join(', ')}`, EXIT_USAGE);
  const rule = await s.client.rules.create(s.organization(), userOf(flags), ruleOf(flags));
  show(s, rule, [rule as never]);
}

export async function rulesUpdate(s: Session, ruleId: string, flags: RuleFlags): Promise<void> {
  const fields = (['type', 'window', 'message', 'metric', 'unit', 'origin', 'threshold', 'comparator'] as const).filter((k) => flags[k] !== undefined);
  if (fields.length === 0) throw new CliFailure('rules update needs at least one of --window, --message, --metric, --unit, --origin, --threshold, --comparator', EXIT_USAGE);
  const uid = userOf(flags);
  const current = await s.client.rules.get(s.organization(), uid, ruleId);
  const rule = await s.client.rules.update(s.organization(), uid, ruleId, ruleOf(flags, current));
  show(s, rule, [rule as never]);
}

export async function rulesDelete(s: Session, ruleId: string, flags: RuleFlags): Promise<void> {
  const rule = await s.client.rules.delete(s.organization(), userOf(flags), ruleId);
  if (s.json) printJson(s.io, rule);
  else s.io.stdout(`deleted rule ${rule.id}\n`);
}
