/**
 * Reading and replacing an organization's source priority (customer and operator alike; the
 * routes decide who may call). The answer always shows the effective orders too, so a customer
 * sees what a partial list means.
 */
import { RESOURCE_TYPES } from '@wellstream/catalog';
import type { Clock } from '@wellstream/clock';
import { notFound } from '@wellstream/errors';
import { EMPTY_SETTING, parseSetting, SourcePrioritySetting, SourceRanking } from './source-priority';
import type { SourcePriorityRepository } from './source-priority.repository';

export interface SourcePriorityDeps {
  priorities: SourcePriorityRepository;
  /** The organization projection: an operator naming an unknown organization gets 404. */
  organizations: { find(organizationId: string): Promise<unknown> };
  clock: Clock;
}

export interface SourcePriorityView extends SourcePrioritySetting {
  organization_id: string;
  /** The order each resource type ends up with (metric lists apply on top, per metric). */
  effective: Record<string, string[]>;
  /** null while the organization uses the default. */
  updated_at: string | null;
}

export const organizationNotFound = (id: string) => notFound('ORGANIZATION_NOT_FOUND', `No organization with id ${id}.`);

export function viewOf(organizationId: string, setting: SourcePrioritySetting, updatedAt: string | null): SourcePriorityView {
  const ranking = new SourceRanking(setting);
  const effective = Object.fromEntries(RESOURCE_TYPES.map((r) => [r, ranking.order(r)]));
  return { organization_id: organizationId, default: setting.default, resources: setting.resources, metrics: setting.metrics, effective, updated_at: updatedAt };
}

/** The setting in force for an organization (the default when none was stored). */
export async function settingOf(deps: Pick<SourcePriorityDeps, 'priorities'>, organizationId: string): Promise<SourcePrioritySetting> {
  const doc = await deps.priorities.find(organizationId);
  return doc ? { default: doc.default, resources: doc.resources, metrics: doc.metrics } : EMPTY_SETTING;
}

export async function getSourcePriority(deps: SourcePriorityDeps, organizationId: string, operator = false): Promise<SourcePriorityView> {
  if (operator && !(await deps.organizations.find(organizationId))) throw organizationNotFound(organizationId);
  const doc = await deps.priorities.find(organizationId);
  return viewOf(organizationId, doc ?? EMPTY_SETTING, doc?.updated_at ?? null);
}

/** PUT: the body replaces the whole setting (`{}` goes back to the default). */
export async function putSourcePriority(deps: SourcePriorityDeps, organizationId: string, body: unknown, operator = false): Promise<SourcePriorityView> {
  const setting = parseSetting(body);
  if (operator && !(await deps.organizations.find(organizationId))) throw organizationNotFound(organizationId);
  const updatedAt = deps.clock.now().toISOString();
  await deps.priorities.save({ _id: organizationId, ...setting, updated_at: updatedAt });
  return viewOf(organizationId, setting, updatedAt);
}
