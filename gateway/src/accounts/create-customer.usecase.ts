import type { AccountRepository } from './account.repository';
import { Customer, customerView } from './account';
import { newId } from './token-secret';

export async function createCustomer(repo: AccountRepository, input: { name: string }, now = new Date()) {
  const customer: Customer = { _id: newId('cus'), name: input.name, created_at: now.toISOString() };
  await repo.customers.insertOne(customer);
  return customerView(customer);
}
