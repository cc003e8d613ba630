/**
 * Ingestion's validation is the record-input contract of libs/contracts (the same checks a
 * provider's records meet); what records adds is utc_offset, which needs the user.
 */
import type { OffsetOrigin } from '../record';
import { isKnownTimeZone, zoneOffsetSeconds } from '@wellstream/clock';

export { validateRecords } from '@wellstream/contracts';
export type { ValidatedContent, ValidatedRecord } from '@wellstream/contracts';

/**
 * utc_offset: kept when the source gave one (`source`); else the user's time zone at start_time
 * (`user_defined` when the user chose the zone in the marketplace, `profile` otherwise); a user
 * without a (valid) time zone gets 0 with origin `profile`.
 */
export function resolveOffset(
  startTime: string,
  given: number | undefined,
  user: { timezone: string | null; timezone_origin: 'profile' | 'user_defined' },
): { utc_offset: number; offset_origin: OffsetOrigin } {
  if (given !== undefined) return { utc_offset: given, offset_origin: 'source' };
  const origin: OffsetOrigin = user.timezone_origin === 'user_defined' ? 'user_defined' : 'profile';
  if (!user.timezone || !isKnownTimeZone(user.timezone)) return { utc_offset: 0, offset_origin: 'profile' };
  return { utc_offset: zoneOffsetSeconds(user.timezone, new Date(startTime)), offset_origin: origin };
}
