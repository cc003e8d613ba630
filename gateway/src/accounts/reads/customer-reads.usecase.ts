/**
 * The operator's reads of customers: a page of them (deleted ones left out, as everywhere) and
 * one by id.
 */
import { notFound } from '@wellstream/errors';
import { customerView } from '../account';
import type { AccountRepository } from '../account.repository';
import { findOptionsOf, PageMeta, PageQuery } from './paging.schema';

export const customerNotFound = (id: string) => notFound('CUSTOMER_NOT_FOUND', `No customer found for id ${id}.`);

export async function listCustomers(repo: AccountRepository, page: PageQuery): Promise<{ data: ReturnType<typeof customerView>[]; meta: PageMeta }> {
  const live = { deleted_at: { $exists: false } };
  const [customers, total] = await Promise.all([repo.customers.find(live, findOptionsOf(page)), repo.customers.count(live)]);
  return { data: customers.map(customerView), meta: { ...page, total } };
}

export async function getCustomer(repo: AccountRepository, id: string) {
  const customer = await repo.findCustomer(id);
  if (!customer) throw customerNotFound(id);
  return customerView(customer);
}
