/**
 * The marketplace's Connect and Disconnect, for every kind of source: the sources service owns a
 * user's sources and answers them (a provider source: a 303 to its sign-in page; the demo source
 * and phone apps: connected at once). The users service's part of the document publishes them
 * among the marketplace's other operations, where they have always been listed. Every path under
 * `/marketplace/{token}/sources` is the sources service's: one prefix, whatever the source.
 */
import { PROVIDER_SOURCE_TYPES } from '@wellstream/catalog';
import { jsonResponse, schemaRef } from '@wellstream/http';
import { declareEndpoints, declarePrefix } from '../endpoint';
import { marketplaceError, tokenParam, typeParam } from '../users/marketplace-parameters';

const ref = schemaRef;
const open = { auth: 'public' } as const;

export const marketplaceSourcesPaths = {
  '/marketplace/{token}/sources/{type}/connect': {
    parameters: [tokenParam, typeParam],
    post: {
      ...open,
      operationId: 'connectSource',
      tags: ['Marketplace'],
      summary: 'Connect a source',
      description:
        'The demo source connects at once (a request body, if any, is ignored); emits a `connection` event. ' +
        "Phone apps (apple_health, health_connect, samsung_health) are not connected here: they connect from the customer's app (their first upload, or `POST /mobile/sources/{type}/connect`), 422 keyed `type`. " +
        `Provider sources (${PROVIDER_SOURCE_TYPES.join(', ')}) are answered by the sources service with a 303 to the provider's authorize URL ` +
        "(response_type=code, client_id, redirect_uri, state, scope); the provider's callback then returns the browser to the marketplace with a `notice`. " +
        'Other cloud sources: 422.',
      security: [],
      responses: {
        200: jsonResponse('The marketplace after the change (JSON requests; the demo source).', ref('MarketplaceView')),
        303: { description: "Back to the page (form posts), or to the provider's authorize URL (provider sources).", headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
        400: marketplaceError(400, 'Malformed JSON.'),
        404: marketplaceError(404, 'Unknown or replaced marketplace token, the user is deleted or suspended, an unknown source type, or a provider source not offered here.'),
        422: marketplaceError(422, "A phone app (it connects from the customer's app), or a cloud source that is not a provider source of this deployment, keyed `type`."),
      },
    },
  },
  '/marketplace/{token}/sources/{type}/disconnect': {
    parameters: [tokenParam, typeParam],
    post: {
      ...open,
      operationId: 'disconnectSource',
      tags: ['Marketplace'],
      summary: 'Disconnect a source',
      description: `Provider sources (${PROVIDER_SOURCE_TYPES.join(', ')}) are answered by the sources service: the access is revoked at the provider where it can be and the tokens erased.`,
      security: [],
      responses: {
        200: jsonResponse('JSON requests: the marketplace after the change (demo and phone apps), or what was disconnected (provider sources).', {
          oneOf: [
            ref('MarketplaceView'),
            {
              type: 'object',
              required: ['source', 'action'],
              properties: { source: { type: 'object', required: ['type'], properties: { type: { type: 'string' } } }, action: { type: 'string', enum: ['disconnected'] } },
            },
          ],
        }),
        303: { description: 'Back to the page (form posts).', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
        404: marketplaceError(404, 'Unknown or replaced marketplace token, the user is deleted or suspended, an unknown source type, or a provider source not offered here or not connected.'),
      },
    },
  },
};

export const marketplaceSourcesEndpoints = declareEndpoints('sources', marketplaceSourcesPaths);

/** Routing only (never published): the sources service answers every path under it, its unknown ones included. */
export const marketplaceSourcesPrefix = declarePrefix('sources', '/marketplace/{token}/sources', 'public');
