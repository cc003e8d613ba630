import type { EventLog } from '@wellstream/bus';
import { customerEventsTopic } from '@wellstream/contracts';
import { notFound } from '@wellstream/errors';
import type { AccountRepository } from './account.repository';
import { customerView } from './account';

/**
 * Deleting a customer: its developer tokens stop working at once, and its slice of the events
 * topic (on Kafka, its topic) is removed with every event in it. The customer record stays, marked
 * deleted, so its id is never handed out again; a second delete answers 404. Retrying after a
 * failure part-way is safe: each step is idempotent and the mark is written last.
 */
export async function deleteCustomer(deps: { repo: AccountRepository; eventLog: EventLog }, customerId: string, now = new Date()) {
  const customer = await deps.repo.findCustomer(customerId);
  if (!customer) throw notFound('CUSTOMER_NOT_FOUND', `No customer found for id ${customerId}.`);
  const at = now.toISOString();
  await deps.repo.tokens.updateMany({ customer_id: customerId, revoked_at: null }, { $set: { revoked_at: at } });
  await deps.eventLog.dropTenant(customerEventsTopic.spec.name, customerId);
  await deps.repo.customers.updateMany({ _id: customerId }, { $set: { deleted_at: at } });
  return customerView({ ...customer, deleted_at: at });
}
