/**
 * The operator's "which sources does this organization use": per source type, how many of its
 * users (active or suspended; deleted ones are gone) have it connected, and how many of those
 * connections are failing. The users service answers it because each user's `sources` is the
 * connected-sources list the customer sees (cloud providers as the sources service reports them,
 * the demo source, phone apps detected from posted data), and it knows the organizations (404).
 * Read a page of users at a time, so a large organization never holds the process; the cost is
 * that organization's users, never the platform's.
 */
import { notFound } from '@wellstream/errors';
import type { UserRepository } from '../../users/user.repository';

export const ORGANIZATION_SOURCES_PAGE = 500;

export interface SourceUsage {
  type: string;
  /** Users with the source connected. */
  connected: number;
  /** Of those, by the connection's state (sources without a state, like the demo, are active). */
  by_status: { active: number; auth_expired: number; error: number };
}

export interface OrganizationSourcesDeps {
  repo: Pick<UserRepository, 'pagesInOrganization'>;
  organizations: { find(organizationId: string): Promise<unknown> };
}

export async function countOrganizationSources(deps: OrganizationSourcesDeps, organizationId: string) {
  if (!(await deps.organizations.find(organizationId))) throw notFound('ORGANIZATION_NOT_FOUND', `No organization with id ${organizationId}.`);
  const byType = new Map<string, SourceUsage>();
  let users = 0;
  for await (const page of deps.repo.pagesInOrganization(organizationId, ORGANIZATION_SOURCES_PAGE)) {
    users += page.length;
    for (const user of page) {
      for (const s of user.sources) {
        let usage = byType.get(s.type);
        if (!usage) byType.set(s.type, (usage = { type: s.type, connected: 0, by_status: { active: 0, auth_expired: 0, error: 0 } }));
        usage.connected++;
        usage.by_status[s.status ?? 'active']++;
      }
    }
  }
  const data = [...byType.values()].sort((a, b) => a.type.localeCompare(b.type));
  return { organization_id: organizationId, users, data };
}
