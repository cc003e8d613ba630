/**
 * The sources service: reconnecting a provider source (connect and disconnect of one are the users
 * service's declarations, delegated here by type), and what providers call: the browser's return
 * from consent and notifications (no developer token, no rate limit).
 */
import { PROVIDER_SOURCE_TYPES } from '@wellstream/catalog';
import { endpoints } from './endpoint';

const open = { auth: 'public' } as const;

export const sourcesEndpoints = endpoints('sources', [
  { operationId: 'reconnectProviderSource', method: 'post', path: '/marketplace/{token}/sources/{type}/reconnect', ...open, pathValues: { type: PROVIDER_SOURCE_TYPES } },
  { operationId: 'providerCallback', method: 'get', path: '/sources/{type}/callback', ...open },
  { operationId: 'providerWebhookHandshake', method: 'get', path: '/sources/{type}/webhook', ...open },
  { operationId: 'providerWebhookProbe', method: 'head', path: '/sources/{type}/webhook', ...open },
  { operationId: 'providerWebhookNotification', method: 'post', path: '/sources/{type}/webhook', ...open },
]);
