/**
 * Errors of notification batches, with stable codes.
 */
import { conflict, notFound } from '@wellstream/errors';

export const batchNotFound = (id: string) => notFound('BATCH_NOT_FOUND', `No notification batch ${id} exists in this organization.`);

export const batchInFlight = (id: string) => conflict('BATCH_IN_FLIGHT', `Notification batch ${id} is being delivered right now; try again shortly.`);
