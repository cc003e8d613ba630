import type { EventLog } from '@wellstream/bus';
import { customerEventsTopic } from '@wellstream/contracts';
import type { Logger } from '@wellstream/logging';
import type { AccountRepository } from './account.repository';
import { Customer, customerView } from './account';
import { newId } from './token-secret';
import type { Clock } from '@wellstream/clock';

/**
 * A customer comes with its slice of the events topic (on Kafka, its own topic), so its streams and
 * replays read only its own events. Creating the slice here spares the first stream the wait; if
 * it fails, the first writer or reader creates it instead, so the customer is created regardless.
 */
export async function createCustomer(
  deps: { repo: AccountRepository; eventLog: EventLog; logger: Logger },
  input: { name: string },
  clock: Clock,
) {
  const customer: Customer = { _id: newId('cus'), name: input.name, created_at: clock.now().toISOString() };
  await deps.repo.customers.insertOne(customer);
  await deps.eventLog
    .ensureTenant(customerEventsTopic.spec.name, customer._id)
    .catch((err) => deps.logger.warn('could not create the customer event slice yet; its first use will', { customer: customer._id, error: err }));
  return customerView(customer);
}
