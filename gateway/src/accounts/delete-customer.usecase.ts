import type { EventLog } from '@wellstream/bus';
import { customerEventsTopic, TokenRevocation } from '@wellstream/contracts';
import { notFound } from '@wellstream/errors';
import type { AccountRepository } from './account.repository';
import { customerView } from './account';
import type { Clock } from '@wellstream/clock';

/**
 * Deleting a customer: its developer tokens stop working at once, and its slice of the events
 * topic (on Kafka, its topic) is removed with every event in it. The customer record stays, marked
 * deleted, so its id is never handed out again; a second delete answers 404. Retrying after a
 * failure part-way is safe: each step is idempotent and the mark is written last.
 */
export async function deleteCustomer(
  deps: { repo: AccountRepository; eventLog: EventLog; announce: (r: TokenRevocation) => Promise<void> },
  customerId: string,
  clock: Clock,
) {
  const customer = await deps.repo.findCustomer(customerId);
  if (!customer) throw notFound('CUSTOMER_NOT_FOUND', `No customer found for id ${customerId}.`);
  const at = clock.now().toISOString();
  const live = await deps.repo.tokens.find({ customer_id: customerId, revoked_at: null });
  await deps.repo.tokens.updateMany({ customer_id: customerId, revoked_at: null }, { $set: { revoked_at: at } });
  // Gateways cache tokens: each revoked one is announced, as a single revocation would be.
  for (const t of live) await deps.announce({ type: 'token.revoked', token_hash: t._id, customer_id: customerId, revoked_at: at });
  await deps.eventLog.dropTenant(customerEventsTopic.spec.name, customerId);
  await deps.repo.customers.updateMany({ _id: customerId }, { $set: { deleted_at: at } });
  return customerView({ ...customer, deleted_at: at });
}
