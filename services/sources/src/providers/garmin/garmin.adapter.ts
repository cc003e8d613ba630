/**
 * The Garmin Health API adapter (Garmin Connect Developer Program): OAuth 2.0 with PKCE and
 * rotating refresh tokens, the user's API id, ping notifications whose callbackURLs are pulled with
 * the user's token (only on Garmin's own API origin), asynchronous backfill requests for history,
 * pushes taken as notices to pull, permission changes asked of Garmin with the user's token,
 * unsigned deregistrations confirmed with the user's token before a connection ends, and the
 * registration deleted on disconnect. README.md says what each call and field is and why.
 */
import { providerDefinition } from '@wellstream/providers';
import { ProviderAdapter } from '../provider.port';
import { authorizeUrl, checkAccess, exchangeCode, fetchProviderUserId, refresh, revoke } from './garmin-oauth';
import { backfill, pull, SUMMARIES } from './garmin-summaries';
import { fetchMissingPermissions } from './garmin-permissions';
import { parseNotification } from './garmin-webhooks';

/** Type, name, addresses, limits and capabilities: libs/providers/src/garmin.ts. */
const definition = providerDefinition('garmin');

export const garminAdapter: ProviderAdapter = {
  type: definition.type,
  resources: [...SUMMARIES.values()].map((s) => s.spec),
  pkce: definition.capabilities.pkce,
  // No deregistration, permission change or ping is signed.
  unsignedNotifications: true,

  authorizeUrl,
  exchangeCode,
  refresh,
  revoke,
  fetchProviderUserId,
  checkAccess,
  fetchMissingPermissions,

  fetchObject: (http, settings, accessToken, resource, callbackUrl) => pull(http, settings, accessToken, resource, callbackUrl),
  fetchWindow: (http, settings, accessToken, resource, window, ctx) => backfill(http, settings, accessToken, resource, window, ctx),
  parseNotification: (settings, req) => parseNotification(settings, req),
};
