/**
 * The OAuth half of a ProviderAdapter, wired the same way by every adapter whose provider documents
 * a plain authorization-code flow without PKCE (Oura, WHOOP, Strava): the port's calls handed to
 * the provider's oauth module. Polar (no refresh, registration after connect), Dexcom (no revoke,
 * its own user id) and Withings wire theirs by hand.
 */
import { ProviderAdapter, ProviderError } from '../provider.port';

type OAuthCalls = Pick<ProviderAdapter, 'authorizeUrl' | 'exchangeCode' | 'refresh' | 'revoke' | 'fetchProviderUserId'>;

/** `pkce: false` (none of these providers describes PKCE parameters) plus the module's calls. */
export function oauthWithoutPkce(m: Required<OAuthCalls>): OAuthCalls & Pick<ProviderAdapter, 'pkce'> {
  return {
    pkce: false,
    authorizeUrl: (settings, params) => m.authorizeUrl(settings, params),
    exchangeCode: (http, settings, params, now) => m.exchangeCode(http, settings, params, now),
    refresh: m.refresh,
    revoke: m.revoke,
    fetchProviderUserId: m.fetchProviderUserId,
  };
}

/** What fetchWindow throws for a resource the adapter does not declare (the service never asks for one). */
export const unknownResource = (provider: string, resource: string): ProviderError =>
  new ProviderError('bad_request', `${provider} has no resource ${resource} in this adapter`);
