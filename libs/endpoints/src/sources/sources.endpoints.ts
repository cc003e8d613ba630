/**
 * The sources service's endpoints: Reconnect, the OAuth callback and the webhook receivers (public
 * paths: no developer token, no rate limit). Its Connect and Disconnect, published among the
 * marketplace's operations, are declared in marketplace-sources.endpoints.ts.
 */
import { PROVIDER_SOURCE_TYPES, SOURCES } from '@wellstream/catalog';

const MOBILE_SOURCE_TYPES = SOURCES.filter((s) => s.kind === 'mobile').map((s) => s.type);
import { errorSchemas } from '@wellstream/http';
import { declareEndpoints } from '../endpoint';
import { openApiPart } from '../openapi-part';

const open = { auth: 'public' } as const;

const error = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: { $ref: '#/components/schemas/ErrorList' } } } });
const typeParam = { name: 'type', in: 'path', required: true, schema: { type: 'string', enum: [...PROVIDER_SOURCE_TYPES] }, description: 'A provider source type offered by this deployment.' };
const tokenParam = { name: 'token', in: 'path', required: true, schema: { type: 'string' }, description: 'The marketplace token (from the user\'s marketplace URL).' };
const redirect = (description: string) => ({ description, headers: { Location: { schema: { type: 'string', format: 'uri' } } } });
const connectOp = (summary: string) => ({
  tags: ['Marketplace'],
  summary,
  security: [],
  parameters: [tokenParam, typeParam],
  responses: {
    '303': redirect('To the provider\'s authorize URL (response_type=code, client_id, redirect_uri, state, scope; PKCE code_challenge where the provider supports it). The state is signed, single-use, bound to the user and valid for 10 minutes.'),
    '404': error('Unknown marketplace token, or the source is not offered here.'),
  },
});

function sourcesApi() {
  return {
    openapi: '3.1.0',
    info: { title: 'Wellstream sources service', version: '2.0.0' },
    paths: {
      '/mobile/sources/{type}/connect': {
        post: {
          ...open,
          tags: ['Sources'],
          operationId: 'connectMobileSource',
          summary: "The phone app connects a phone store (its SDK's connect)",
          description:
            "Authenticated by the user's mobile token (`token` query parameter). Connects the store at once (a `connection` event `connected`) unless it is connected; " +
            'after a Disconnect on the marketplace, uploads of that `source.type` answer 422 until this is called. A store is also connected by its first upload.',
          security: [],
          parameters: [
            { name: 'type', in: 'path', required: true, schema: { type: 'string', enum: [...MOBILE_SOURCE_TYPES] }, description: 'A phone store.' },
            { name: 'token', in: 'query', required: true, schema: { type: 'string', minLength: 1 }, description: "The user's mobile.token" },
          ],
          responses: {
            '200': {
              description: 'Connected (now, or already).',
              content: { 'application/json': { schema: { type: 'object', required: ['source', 'connected'], properties: { source: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } }, connected: { type: 'boolean', enum: [true] } } } } },
            },
            '401': { description: 'Unknown, rotated or missing mobile token (or the user was deleted).', content: { 'application/json': { schema: { $ref: '#/components/schemas/Message' } } } },
            '404': { description: 'Not a phone store, or the user is suspended.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorList' } } } },
          },
        },
      },
      '/marketplace/{token}/sources/{type}/reconnect': { post: { ...open, ...connectOp('Reconnect a provider source whose authorization expired'), operationId: 'reconnectProviderSource' } },
      '/sources/{type}/callback': {
        get: {
          ...open,
          tags: ['Sources'],
          operationId: 'providerCallback',
          summary: 'Where the provider returns the browser after consent (the registered redirect URI)',
          security: [],
          parameters: [
            typeParam,
            { name: 'code', in: 'query', schema: { type: 'string' } },
            { name: 'state', in: 'query', schema: { type: 'string' } },
            { name: 'error', in: 'query', schema: { type: 'string' } },
          ],
          responses: {
            '303': redirect('Back to the user\'s marketplace, with `notice` saying connected, reconnected, denied or error.'),
            '400': { description: 'A forged, expired or replayed state: nothing is stored.', content: { 'text/html': { schema: { type: 'string' } } } },
            '404': error('The source is not offered here.'),
          },
        },
      },
      '/sources/{type}/webhook': {
        get: { ...open, tags: ['Sources'], operationId: 'providerWebhookHandshake', summary: 'The provider\'s verification handshake', security: [], parameters: [typeParam], responses: { '200': { description: 'Handshake answered as the provider documents.' }, '401': { description: 'Wrong verification token.' }, '404': error('Not offered.') } },
        head: { ...open, tags: ['Sources'], operationId: 'providerWebhookProbe', summary: 'The provider checks the URL answers', security: [], parameters: [typeParam], responses: { '200': { description: 'Reachable.' }, '404': { description: 'Not offered.' } } },
        post: {
          ...open,
          tags: ['Sources'],
          operationId: 'providerWebhookNotification',
          summary: 'A provider notification: verified, answered at once, its fetch queued',
          security: [],
          parameters: [typeParam],
          requestBody: { required: false, content: { '*/*': { schema: {} } } },
          responses: {
            '200': { description: 'Accepted (also for a provider user with no connection here, which is logged).', content: { 'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { type: 'string' } } } } } },
            '201': { description: 'A provider\'s verification POST with our secret (Google Health\'s subscriber check).', content: { 'application/json': { schema: { type: 'object' } } } },
            '400': { description: 'Malformed notification.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorList' } } } },
            '401': { description: 'Bad signature: nothing is fetched.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Message' } } } },
            '404': error('Not offered.'),
          },
        },
      },
    },
    components: { schemas: { ...errorSchemas } },
  };
}

const api = sourcesApi();
export const sourcesEndpoints = declareEndpoints('sources', api.paths);
export const sourcesOpenApi = openApiPart(sourcesEndpoints, { schemas: api.components.schemas });
