/**
 * The gateway's rate limit counts a fixed clock hour, so a test that counts requests against it
 * fails if the hour turns between its requests (the count starts again) or reads a Retry-After that
 * the last seconds of the hour make short. Such a test first waits, if it is that close to the turn,
 * until the next hour has begun. Midnight UTC is such a turn too, so a test that reads "today" uses
 * it as well. CI runs at any minute of the hour.
 */
const HOUR_MS = 3_600_000;

/** Resolves at once when at least `needMs` remain in the current clock hour, else just after it turns. */
export async function clearOfTheHourTurn(needMs: number, now: () => number = Date.now): Promise<void> {
  const left = HOUR_MS - (now() % HOUR_MS);
  if (left >= needMs) return;
  await new Promise((resolve) => setTimeout(resolve, left + 50));
}
