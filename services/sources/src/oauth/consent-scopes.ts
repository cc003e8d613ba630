/**
 * What the user granted at the provider's consent page, against the data scopes the adapter asked
 * for (ConsentScopes). Providers say it in one of two places: the token answer's `scope` (OAuth 2's
 * own place: WHOOP, Withings, Polar, Dexcom) or the redirect's `scope` (Strava, whose token answer
 * has none; Oura). The token answer wins when it has one. When neither says, the grant is taken as
 * asked (RFC 6749 §5.1: a token answer may omit `scope` when it is the one requested); a data call the
 * provider then refuses is still reported as consent_missing.
 */
import type { ConsentScopes } from '../providers/provider.port';

export interface ConsentOutcome {
  /** At least one data scope (or a narrower part of one) was granted. */
  dataGranted: boolean;
  /** The data scopes asked for and not granted in full, as the provider names them. */
  missing: string[];
}

/** Scopes as providers write them: space- (OAuth 2), comma- (Strava, Withings) or plus-separated. */
export const scopeList = (text: string): string[] => text.split(/[\s,+]+/).filter(Boolean);

export function readConsent(asked: ConsentScopes | undefined, granted: string | undefined): ConsentOutcome {
  if (!asked || granted === undefined) return { dataGranted: true, missing: [] };
  const have = new Set(scopeList(granted));
  const missing = asked.data.filter((d) => !have.has(d.scope)).map((d) => d.scope);
  const dataGranted = asked.data.some((d) => have.has(d.scope) || (d.partlyBy ?? []).some((s) => have.has(s)));
  return { dataGranted, missing };
}
