/**
 * For connector tests: checks records exactly as ingestion will (the records service's own
 * validation, all-or-nothing), so an adapter's mapping is held to the real schemas, not a copy.
 * Throws the records service's validation error (with `details` per field) when any is refused.
 */
import { validateRecords } from '../../../services/records/src/records/ingest-records/validate-records';

export function assertIngestible(records: unknown[]): void {
  validateRecords({ records });
}
