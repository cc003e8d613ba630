/**
 * The users service's endpoints (paths relative to /v2): users, their marketplace page, the data
 * lifecycle and the operator's sources count. Each operation carries its routing (`auth`, …), which
 * is not published. The gateway merges their part into /v2/openapi.json and /docs, and adds the
 * answers the gateway itself gives (401, 429, 5xx).
 * Constraints follow the joi schemas and policies of the routes; links lead from a created user
 * to everything that takes its uid or marketplace token.
 */
import { RESOURCE_PATHS, RESOURCE_TYPES, SOURCE_TYPES, USER_SORTS } from '@wellstream/catalog';
import { idempotent } from '../idempotency';
import { errorResponse, errorSchemas, jsonResponse, schemaRef } from '@wellstream/http';
import { lifecyclePaths, lifecycleSchemas, lifecycleTags } from './lifecycle.endpoints';
import { organizationSourcesPaths, organizationSourcesSchemas } from './organization-sources.endpoints';
import { marketplaceSourcesEndpoints, marketplaceSourcesPaths } from '../sources/marketplace-sources.endpoints';
import { htmlContent, marketplaceError, tokenParam } from './marketplace-parameters';
import { declareEndpoints, EndpointDeclaration } from '../endpoint';
import { openApiPart } from '../openapi-part';

const ref = schemaRef;
const developer = { auth: 'developer', organizationParam: 'org_id' } as const;
const admin = { auth: 'admin' } as const;
const open = { auth: 'public' } as const;
const CONNECTION_STATUSES = ['active', 'auth_expired', 'error'] as const;
const time = { type: 'string', format: 'date-time' };
const orgParam = { name: 'org_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: 'Organization id.' };
const uidParam = { name: 'uid', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: 'The customer-defined user id.' };

const CONNECT = '/marketplace/{token}/sources/{type}/connect';
const DISCONNECT = '/marketplace/{token}/sources/{type}/disconnect';
const notFoundUser = errorResponse(404, 'No such user in this organization (or deleted).');
const marketplaceGone = marketplaceError(404, 'Unknown or replaced marketplace token, or the user is deleted or suspended; or an unknown source type.');

const locationSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    timezone: { type: ['string', 'null'], maxLength: 64, description: 'Olson time zone name (every name Intl knows, aliases included), e.g. Europe/Berlin; others: 422. null clears it.', example: 'Europe/Berlin' },
    country_code: { type: ['string', 'null'], maxLength: 8, description: 'ISO 3166-1 alpha-2 code, any case (stored upper case); others: 422. null clears it.', example: 'DE' },
  },
};
const uidSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  pattern: '^[A-Za-z0-9._~-]+$',
  description:
    'Unique in the organization (in use, or once used by a deleted user: 422 `{"errors":{"uid":["already exists"]}}`); 1 to 128 of A-Z a-z 0-9 . _ ~ -; must not be or contain an e-mail address, a phone number or an SSN (422, with the rule spelled out). Seven to fifteen digits in a row (e.g. `Date.now()`) read as a phone number.',
  example: 'user-0001',
};

const userLinks = {
  getUser: { operationId: 'getUser', parameters: { org_id: '$request.path.org_id', uid: '$response.body#/uid' } },
  updateUser: { operationId: 'updateUser', parameters: { org_id: '$request.path.org_id', uid: '$response.body#/uid' } },
  deleteUser: { operationId: 'deleteUser', parameters: { org_id: '$request.path.org_id', uid: '$response.body#/uid' } },
  refreshMarketplace: { operationId: 'refreshMarketplace', parameters: { org_id: '$request.path.org_id', uid: '$response.body#/uid' } },
  openMarketplace: { operationId: 'openMarketplace', parameters: { token: '$response.body#/marketplace/token' } },
  chooseTimezone: { operationId: 'chooseTimezone', parameters: { token: '$response.body#/marketplace/token' } },
  // Other services' operations on the same user (the merged document holds them all).
  listRules: { operationId: 'listRules', parameters: { org_id: '$request.path.org_id', uid: '$response.body#/uid' } },
  createRule: { operationId: 'createRule', parameters: { org_id: '$request.path.org_id', uid: '$response.body#/uid' } },
  ...Object.fromEntries(
    Object.keys(RESOURCE_PATHS).map((plural) => {
      const operationId = `list${plural[0].toUpperCase()}${plural.slice(1)}`;
      return [operationId, { operationId, parameters: { org_id: '$request.path.org_id', uid: '$response.body#/uid' } }];
    }),
  ),
};

const usersApi = {
  tags: [
    { name: 'Users', description: 'User provisioning. Create responds 201.' },
    { name: 'Marketplace', description: 'The public page where a user connects sources (no developer token: the marketplace token is in the path).' },
    ...lifecycleTags,
  ],
  paths: {
    ...lifecyclePaths,
    '/organizations/{org_id}/users': {
      parameters: [orgParam],
      post: idempotent({
        ...developer,
        operationId: 'createUser',
        tags: ['Users'],
        summary: 'Create a user',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['uid'], additionalProperties: false, properties: { uid: uidSchema, location: locationSchema } } } },
        },
        responses: {
          201: { ...jsonResponse('Created.', ref('User')), links: userLinks },
          400: errorResponse(400, 'Malformed JSON, or a field of the wrong type.'),
          422: errorResponse(422, 'uid taken, malformed or identifying; unsupported time zone or country code.'),
        },
      }),
      get: {
        ...developer,
        operationId: 'listUsers',
        tags: ['Users'],
        summary: 'List the users of an organization',
        parameters: [
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 1_000_000_000, default: 0 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
          { name: 'sort', in: 'query', schema: { type: 'string', enum: [...USER_SORTS], default: 'created_at' } },
        ],
        responses: {
          200: jsonResponse('One page of users (deleted users excluded).', {
            type: 'object',
            required: ['data', 'meta'],
            properties: {
              data: { type: 'array', items: ref('UserListItem') },
              meta: {
                type: 'object',
                required: ['offset', 'limit', 'total', 'sort'],
                properties: { offset: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' }, sort: { type: 'string', enum: [...USER_SORTS] } },
              },
            },
          }),
          400: errorResponse(400, 'Bad paging values.'),
        },
      },
    },
    '/organizations/{org_id}/users/{uid}': {
      parameters: [orgParam, uidParam],
      get: { ...developer, operationId: 'getUser', tags: ['Users'], summary: 'Get a user', responses: { 200: jsonResponse('The user.', ref('UserDetail')), 404: notFoundUser } },
      put: {
        ...developer,
        operationId: 'updateUser',
        tags: ['Users'],
        summary: "Update a user's location",
        description: 'Keys left out of `location` keep their value; null clears one.',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['location'], additionalProperties: false, properties: { location: locationSchema } } } } },
        responses: {
          200: jsonResponse('The updated user.', ref('User')),
          400: errorResponse(400, 'Malformed JSON, or a field of the wrong type.'),
          404: notFoundUser,
          422: errorResponse(422, 'Unsupported time zone or country code.'),
        },
      },
      delete: {
        ...developer,
        operationId: 'deleteUser',
        tags: ['Users'],
        summary: 'Delete a user',
        description: 'Access ends at once and for good; the data is kept (7 years, on special request). The uid stays reserved.',
        responses: { 200: jsonResponse('The deleted user.', ref('DeletedUser')), 404: notFoundUser },
      },
    },
    '/organizations/{org_id}/users/{uid}/marketplace': {
      parameters: [orgParam, uidParam],
      post: {
        ...developer,
        operationId: 'refreshMarketplace',
        tags: ['Users'],
        summary: 'Issue a new marketplace token and URL',
        description: 'Earlier tokens and URLs stop working at once; connected sources are unaffected.',
        responses: {
          200: {
            ...jsonResponse('The new marketplace.', { type: 'object', required: ['marketplace'], properties: { marketplace: ref('Marketplace') } }),
            links: { openMarketplace: { operationId: 'openMarketplace', parameters: { token: '$response.body#/marketplace/token' } } },
          },
          404: notFoundUser,
        },
      },
    },
    '/organizations/{org_id}/users/{uid}/mobile_token': {
      parameters: [orgParam, uidParam],
      post: {
        ...developer,
        operationId: 'rotateMobileToken',
        tags: ['Users'],
        summary: "Issue a new mobile token (a lost phone)",
        description:
          "The old token answers 401 from the moment this answers, for uploads and the app's connect alike; the user's records and sources are unaffected. " +
          'Hand the new token to the phone app (it is also in the user\'s `mobile.token`).',
        responses: {
          200: jsonResponse('The new mobile token.', { type: 'object', required: ['mobile'], properties: { mobile: { type: 'object', required: ['token'], properties: { token: { type: 'string' } } } } }),
          404: notFoundUser,
        },
      },
    },
    '/admin/organizations/{org_id}/users/{uid}/suspend': {
      parameters: [orgParam, uidParam],
      post: {
        ...admin,
        operationId: 'suspendUser',
        tags: ['operator'],
        summary: 'Suspend a user (operator token)',
        description: "Closes the marketplace; the rules service deletes the user's rules.",
        responses: { 200: jsonResponse('The suspended user.', ref('AdminUser')), 404: notFoundUser },
      },
    },
    '/admin/organizations/{org_id}/users/{uid}/unsuspend': {
      parameters: [orgParam, uidParam],
      post: { ...admin, operationId: 'unsuspendUser', tags: ['operator'], summary: 'Unsuspend a user (operator token)', responses: { 200: jsonResponse('The active user.', ref('AdminUser')), 404: notFoundUser } },
    },
    '/marketplace/{token}': {
      parameters: [tokenParam],
      get: {
        ...open,
        operationId: 'openMarketplace',
        tags: ['Marketplace'],
        summary: 'The marketplace (HTML page, or JSON with Accept: application/json)',
        security: [],
        parameters: [
          { name: 'fragment', in: 'query', schema: { type: 'string' }, description: '`sources`: only the source cards (HTML), for the page\'s script.' },
          { name: 'notice', in: 'query', schema: { type: 'string' }, description: 'A status line to show after a plain form post (HTML).' },
        ],
        responses: { 200: { description: 'The marketplace.', content: { 'application/json': { schema: ref('MarketplaceView') }, ...htmlContent } }, 404: marketplaceGone },
      },
    },
    // The marketplace's Connect and Disconnect, published here among its other operations; the
    // sources service answers them (../sources/marketplace-sources.endpoints.ts).
    ...marketplaceSourcesPaths,
    '/marketplace/{token}/timezone': {
      parameters: [tokenParam],
      post: {
        ...open,
        operationId: 'chooseTimezone',
        tags: ['Marketplace'],
        summary: 'The user chooses their time zone',
        description: 'Sets location.timezone with origin `user_defined` (records then reports offset_origin `user_defined`).',
        security: [],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { type: 'object', required: ['timezone'], properties: { timezone: { type: 'string', maxLength: 64 } } } },
            'application/x-www-form-urlencoded': { schema: { type: 'object', required: ['timezone'], properties: { timezone: { type: 'string', maxLength: 64 } } } },
          },
        },
        responses: {
          200: jsonResponse('The marketplace after the change (JSON requests).', ref('MarketplaceView')),
          303: { description: 'Back to the page (form posts).', headers: { Location: { schema: { type: 'string', format: 'uri' } } } },
          400: marketplaceError(400, '`timezone` missing, not a string or over 64 characters; or malformed JSON.'),
          404: marketplaceGone,
          422: marketplaceError(422, 'Unsupported time zone.'),
        },
      },
    },
    ...organizationSourcesPaths,
  },
  components: {
    schemas: {
      ...lifecycleSchemas,
      ...errorSchemas,
      Marketplace: { type: 'object', required: ['token', 'url'], properties: { token: { type: 'string' }, url: { type: 'string', format: 'uri' } } },
      Location: {
        type: 'object',
        required: ['timezone', 'country_code'],
        properties: { timezone: { type: ['string', 'null'] }, country_code: { type: ['string', 'null'], pattern: '^[A-Z]{2}$' } },
      },
      ConnectedSource: {
        type: 'object',
        required: ['type', 'connected_at', 'status', 'last_synced_at', 'backfill'],
        properties: {
          type: { type: 'string' },
          connected_at: time,
          status: { type: 'string', enum: [...CONNECTION_STATUSES], description: 'Provider sources: `auth_expired` until the user reconnects, `error` while syncing fails. Demo and phone apps: always `active`.' },
          last_synced_at: { ...time, type: ['string', 'null'], description: "Last successful sync of a provider source, or the phone app's last accepted upload of a phone source; null before the first one, and for the demo source." },
          backfill: { oneOf: [ref('SourceBackfill'), { type: 'null' }], description: 'The import of the provider\'s history; null for demo and phone apps.' },
          missing_permissions: ref('MissingPermissions'),
          uploaded: ref('PhoneUploads'),
        },
      },
      PhoneUploads: {
        type: 'object',
        required: ['resources', 'last_record_at'],
        additionalProperties: false,
        description:
          "Phone sources (apple_health, health_connect, samsung_health) only, once the app's uploads stored something: what they brought since the source was connected. A phone source connects from the customer's app (its first record, or the app's connect), never from the marketplace.",
        properties: {
          resources: { type: 'array', items: { type: 'string', enum: [...RESOURCE_TYPES] }, description: 'The resource types uploaded.' },
          last_record_at: { ...time, type: ['string', 'null'], description: 'The latest end time of an uploaded record; null when the uploads held only deletions.' },
        },
      },
      MissingPermissions: {
        type: 'array',
        minItems: 1,
        items: { type: 'string' },
        description:
          'Provider sources only, and only when the user refused some of the data permissions asked for at the provider\'s consent page (the provider\'s own scope names, e.g. Strava\'s `activity:read_all`): the source is connected (`status` stays `active`) but brings only what was granted. Absent when everything asked for was granted. Reconnecting lets the user grant the rest.',
      },
      SourceBackfill: {
        type: 'object',
        required: ['state', 'progress', 'start', 'end'],
        properties: {
          state: { type: 'string', enum: ['running', 'done'] },
          progress: { type: 'number', minimum: 0, maximum: 1 },
          start: { ...time, description: 'Start of the history being imported.' },
          end: time,
        },
      },
      User: {
        type: 'object',
        required: ['id', 'uid', 'marketplace', 'location', 'sources', 'created_at', 'updated_at'],
        properties: {
          id: { type: 'string' },
          uid: { type: 'string' },
          marketplace: ref('Marketplace'),
          location: ref('Location'),
          sources: { type: 'array', items: ref('ConnectedSource') },
          created_at: time,
          updated_at: time,
        },
      },
      UserDetail: {
        allOf: [ref('User'), { type: 'object', required: ['mobile'], properties: { mobile: { type: 'object', required: ['token'], properties: { token: { type: 'string' } } } } }],
      },
      DeletedUser: { allOf: [ref('User'), { type: 'object', required: ['deleted_at'], properties: { deleted_at: time } }] },
      AdminUser: { allOf: [ref('UserDetail'), { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['active', 'suspended'] } } }] },
      UserListItem: {
        type: 'object',
        required: ['id', 'uid', 'marketplace', 'mobile', 'location', 'status', 'created_at', 'updated_at'],
        properties: {
          id: { type: 'string' },
          uid: { type: 'string' },
          marketplace: ref('Marketplace'),
          mobile: { type: 'object', required: ['token'], properties: { token: { type: 'string' } } },
          location: ref('Location'),
          status: { type: 'string', enum: ['active', 'suspended'] },
          created_at: time,
          updated_at: time,
        },
      },
      MarketplaceView: {
        type: 'object',
        required: ['user', 'marketplace', 'sources', 'actions'],
        properties: {
          user: {
            type: 'object',
            required: ['uid', 'status', 'location'],
            properties: {
              uid: { type: 'string' },
              status: { type: 'string', enum: ['active', 'suspended'] },
              location: {
                type: 'object',
                required: ['timezone', 'timezone_origin', 'country_code'],
                properties: { timezone: { type: ['string', 'null'] }, timezone_origin: { type: ['string', 'null'] }, country_code: { type: ['string', 'null'] } },
              },
            },
          },
          marketplace: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } },
          sources: {
            type: 'array',
            items: {
              type: 'object',
              required: ['type', 'name', 'kind', 'resources', 'initials', 'color', 'connected', 'connected_at', 'status', 'last_synced_at', 'backfill', 'history_days', 'note', 'actions'],
              properties: {
                type: { type: 'string', enum: SOURCE_TYPES },
                name: { type: 'string' },
                kind: { type: 'string', enum: ['cloud', 'mobile', 'demo'] },
                resources: { type: 'array', items: { type: 'string' } },
                initials: { type: 'string' },
                color: { type: 'string' },
                connected: { type: 'boolean' },
                connected_at: { type: ['string', 'null'], format: 'date-time' },
                status: { type: ['string', 'null'], enum: [...CONNECTION_STATUSES, null], description: 'null while not connected.' },
                last_synced_at: { type: ['string', 'null'], format: 'date-time' },
                backfill: { oneOf: [ref('SourceBackfill'), { type: 'null' }] },
                missing_permissions: ref('MissingPermissions'),
                uploaded: ref('PhoneUploads'),
                history_days: { type: ['integer', 'null'], minimum: 1, description: 'How far back the provider lets the platform read (cloud sources, when documented).' },
                note: { type: ['string', 'null'], description: 'How the source syncs, in words (e.g. polling only).' },
                actions: {
                  type: 'object',
                  required: ['disconnect'],
                  additionalProperties: false,
                  properties: {
                    connect: { type: 'string', format: 'uri', description: "Absent for phone sources: they connect from the customer's app." },
                    reconnect: { type: 'string', format: 'uri', description: 'Only while `status` is `auth_expired`, or while `missing_permissions` names permissions the user refused.' },
                    disconnect: { type: 'string', format: 'uri' },
                  },
                },
              },
            },
            description: 'The demo source, the phone apps, and the cloud sources this deployment offers (plus cloud sources the user has connected).',
          },
          actions: { type: 'object', required: ['timezone'], properties: { timezone: { type: 'string', format: 'uri' } } },
        },
      },
      ...organizationSourcesSchemas,
    },
  },
};

const { [CONNECT]: _connect, [DISCONNECT]: _disconnect, ...ownPaths } = usersApi.paths;
export const usersEndpoints = declareEndpoints('users', ownPaths);

/** In the order the document lists the paths: the marketplace's operations together, whoever answers them. */
const published: EndpointDeclaration[] = Object.keys(usersApi.paths).flatMap((path) => [...usersEndpoints, ...marketplaceSourcesEndpoints].filter((d) => d.path === path));
export const usersOpenApi = openApiPart(published, { tags: usersApi.tags, schemas: usersApi.components.schemas });
