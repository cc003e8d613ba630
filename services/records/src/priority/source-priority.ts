/**
 * Source priority: an organization's ranking of sources, per resource type and per metric, which
 * the merged reads (`merged=true`) use to decide between overlapping records of different sources.
 *
 * A setting names only what it changes: `default` (one order for everything), `resources`
 * (an order per resource type) and `metrics` (an order per metric type). The ranking for a
 * (resource, metric) pair is the most specific list given (metric, then resource, then default),
 * completed by the platform's default order for the sources it leaves out, so every source has a
 * rank and no two sources share one.
 */
import Joi from 'joi';
import { METRIC_TYPES, RESOURCE_TYPES, SOURCES, SOURCE_TYPES, sourceDefinition } from '@wellstream/catalog';
import { FieldErrors, unprocessable, validate } from '@wellstream/errors';

export interface SourcePrioritySetting {
  /** One order for every resource and metric not named below; empty = the platform's default. */
  default: string[];
  /** Resource type → order. */
  resources: Record<string, string[]>;
  /** Metric type → order; wins over the resource's order. */
  metrics: Record<string, string[]>;
}

export const EMPTY_SETTING: SourcePrioritySetting = { default: [], resources: {}, metrics: {} };

/**
 * The platform's default order: dedicated devices (cloud sources that read a ring, a watch, a
 * scale, a glucose sensor) over apps, over the phone's aggregators (Apple Health, Health Connect,
 * Samsung Health: they mix the phone's own step counter with whatever other apps write), over the
 * demo source; within a tier, the catalog's order. Computed from the catalog, so a source added
 * there gets its place without a change here.
 */
export function platformDefaultOrder(): string[] {
  const tier = (type: string): number => {
    const kind = sourceDefinition(type)?.kind;
    if (kind === 'cloud') return sourceDefinition(type)?.app ? 1 : 0; // apps (the provider's definition says) below devices
    if (kind === 'mobile') return 2;
    return 3;
  };
  return SOURCES.map((s, i) => ({ type: s.type, tier: tier(s.type), i }))
    .sort((a, b) => a.tier - b.tier || a.i - b.i)
    .map((s) => s.type);
}

/** The ranking of a setting: rank(resource, metric?)(source) → 0 is best. */
export class SourceRanking {
  private readonly cache = new Map<string, Map<string, number>>();
  private readonly fallback = platformDefaultOrder();

  constructor(readonly setting: SourcePrioritySetting) {}

  /**
   * The full order for a resource (and a metric of it, when given): the metric's list, then the
   * resource's, then the organization's default, then the platform's, each adding the sources the
   * earlier ones left out.
   */
  order(resource: string, metric?: string): string[] {
    const lists = [(metric && this.setting.metrics[metric]) || [], this.setting.resources[resource] ?? [], this.setting.default, this.fallback];
    return lists.reduce((acc, list) => complete(acc, list), [] as string[]);
  }

  /** The rank of a source (0 best); a source the catalog no longer lists ranks last. */
  rank(resource: string, metric: string | undefined, source: string): number {
    const key = `${resource}\u0000${metric ?? ''}`;
    let ranks = this.cache.get(key);
    if (!ranks) {
      ranks = new Map(this.order(resource, metric).map((s, i) => [s, i]));
      this.cache.set(key, ranks);
    }
    return ranks.get(source) ?? Number.MAX_SAFE_INTEGER;
  }
}

/** `first`, then the sources of `rest` it leaves out, in their order. */
function complete(first: string[], rest: string[]): string[] {
  const seen = new Set(first);
  return [...first, ...rest.filter((s) => !seen.has(s))];
}

const order = () => Joi.array().items(Joi.string().min(1).max(100)).max(100);

/** Shape (400 when wrong): objects of string lists. What the names mean is checked after (422). */
const settingSchema = Joi.object<SourcePrioritySetting>({
  default: order().default([]),
  resources: Joi.object().pattern(Joi.string(), order().required()).default({}),
  metrics: Joi.object().pattern(Joi.string(), order().required()).default({}),
}).required();

/**
 * A PUT body as a setting: 400 when it is not the shape above, 422 naming each field that names an
 * unknown source, resource or metric, lists a source twice, or gives a metric to a resource that
 * does not carry it.
 */
export function parseSetting(body: unknown): SourcePrioritySetting {
  const setting = validate(settingSchema, body, { code: 'INVALID_SOURCE_PRIORITY' });
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const checkOrder = (field: string, list: string[]) => {
    const seen = new Set<string>();
    list.forEach((source, i) => {
      if (!SOURCE_TYPES.includes(source)) add(`${field}[${i}]`, `unknown source: ${source}`);
      else if (seen.has(source)) add(`${field}[${i}]`, `${source} is listed twice`);
      seen.add(source);
    });
  };
  checkOrder('default', setting.default);
  for (const [resource, list] of Object.entries(setting.resources)) {
    if (!(RESOURCE_TYPES as readonly string[]).includes(resource)) add(`resources.${resource}`, `unknown resource type: ${resource}`);
    checkOrder(`resources.${resource}`, list);
  }
  for (const [metric, list] of Object.entries(setting.metrics)) {
    if (!METRIC_TYPES.includes(metric)) add(`metrics.${metric}`, `unknown metric type: ${metric}`);
    checkOrder(`metrics.${metric}`, list);
  }
  if (Object.keys(errors).length) throw unprocessable('INVALID_SOURCE_PRIORITY', errors);
  return setting;
}
