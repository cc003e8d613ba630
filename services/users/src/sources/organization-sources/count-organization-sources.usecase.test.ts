/**
 * Counting an organization's connected sources: per type over all pages of users, by connection
 * state (no state counts as active), and 404 for an organization the projection does not know.
 */
import type { User } from '../../users/user';
import { countOrganizationSources } from './count-organization-sources.usecase';

const user = (sources: Partial<User['sources'][number]>[]) => ({ sources: sources.map((s) => ({ type: 'demo', connected_at: '2026-01-01T00:00:00.000Z', ...s })) }) as User;

async function* pages(...ps: User[][]) {
  for (const p of ps) yield p;
}

it('counts each type over every page, by state', async () => {
  const deps = {
    organizations: { find: async (id: string) => (id === 'org-1' ? { _id: id } : null) },
    repo: {
      pagesInOrganization: () =>
        pages(
          [user([{ type: 'oura', status: 'active' }, { type: 'demo' }]), user([{ type: 'oura', status: 'auth_expired' }])],
          [user([]), user([{ type: 'dexcom', status: 'error' }, { type: 'oura', status: 'error' }])],
        ),
    },
  };
  expect(await countOrganizationSources(deps, 'org-1')).toEqual({
    organization_id: 'org-1',
    users: 4,
    data: [
      { type: 'demo', connected: 1, by_status: { active: 1, auth_expired: 0, error: 0 } },
      { type: 'dexcom', connected: 1, by_status: { active: 0, auth_expired: 0, error: 1 } },
      { type: 'oura', connected: 3, by_status: { active: 1, auth_expired: 1, error: 1 } },
    ],
  });
  await expect(countOrganizationSources(deps, 'org-x')).rejects.toMatchObject({ kind: 'not_found', code: 'ORGANIZATION_NOT_FOUND' });
});
