/**
 * For connector tests: checks records exactly as ingestion will (the record-input contract of
 * libs/contracts that the records service validates with, all-or-nothing), so an adapter's mapping
 * is held to the real schemas, not a copy. Throws the validation error (with `details` per field)
 * when any is refused.
 */
import { validateRecords } from '@wellstream/contracts';

export function assertIngestible(records: unknown[]): void {
  validateRecords({ records });
}
