/**
 * The operator's reads of organizations: a customer's, a page at a time, and one by id.
 */
import { notFound } from '@wellstream/errors';
import { organizationView } from '../account';
import type { AccountRepository } from '../account.repository';
import { customerNotFound } from './customer-reads.usecase';
import { findOptionsOf, PageMeta, PageQuery } from './paging.schema';

export async function listOrganizations(repo: AccountRepository, customerId: string, page: PageQuery): Promise<{ data: ReturnType<typeof organizationView>[]; meta: PageMeta }> {
  if (!(await repo.findCustomer(customerId))) throw customerNotFound(customerId);
  const ofCustomer = { customer_id: customerId };
  // Served by the (customer_id, created_at) index.
  const [organizations, total] = await Promise.all([repo.organizations.find(ofCustomer, findOptionsOf(page)), repo.organizations.count(ofCustomer)]);
  return { data: organizations.map(organizationView), meta: { ...page, total } };
}

export async function getOrganization(repo: AccountRepository, id: string) {
  const organization = await repo.findOrganization(id);
  // An organization of a deleted customer is gone with it, as its customer is.
  if (!organization || !(await repo.findCustomer(organization.customer_id))) throw notFound('ORGANIZATION_NOT_FOUND', `No organization found for id ${id}.`);
  return organizationView(organization);
}
