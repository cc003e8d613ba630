/**
 * This service's part of the OpenAPI document (paths relative to /v2); the gateway merges it into
 * /v2/openapi.json and /docs.
 */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown, description: string) => ({ description, content: { 'application/json': { schema } } });
const orgParam = { name: 'org_id', in: 'path', required: true, schema: { type: 'string' }, description: 'Organization id.' };
const uidParam = { name: 'uid', in: 'path', required: true, schema: { type: 'string' }, description: 'The customer-defined user id.' };
const tokenParam = { name: 'token', in: 'path', required: true, schema: { type: 'string' }, description: 'The marketplace token.' };
const typeParam = { name: 'type', in: 'path', required: true, schema: { type: 'string' }, description: 'Source type (see the marketplace JSON).' };
const errors = {
  400: json(ref('FieldErrors'), 'Malformed request (wrong types, bad paging values).'),
  401: json({ oneOf: [ref('Message'), ref('ErrorList')] }, 'Missing/unknown token ({"message"}) or organization not allowed ({"errors":[...]}).'),
  404: json(ref('ErrorList'), 'No such user in this organization (or deleted).'),
};
const marketplaceErrors = { 404: json(ref('ErrorList'), 'Unknown or outdated marketplace token, or the user is deleted or suspended (HTML for browsers).') };

const locationSchema = {
  type: 'object',
  properties: {
    timezone: { type: ['string', 'null'], description: 'Olson time zone name, e.g. Europe/Berlin (400+ supported).', example: 'Europe/Berlin' },
    country_code: { type: ['string', 'null'], description: 'ISO 3166-1 alpha-2 code.', example: 'DE' },
  },
};

export const usersOpenApi = {
  tags: [
    { name: 'Users', description: 'User provisioning. Create responds 201.' },
    { name: 'Marketplace', description: 'The public page where a user connects sources (no developer token: the marketplace token is in the path).' },
  ],
  paths: {
    '/organizations/{org_id}/users': {
      parameters: [orgParam],
      post: {
        tags: ['Users'],
        summary: 'Create a user',
        description:
          'The uid must be unique in the organization, 1–128 characters of [A-Za-z0-9._~-], and must not contain an e-mail address, phone number or social security number (422).',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', required: ['uid'], properties: { uid: { type: 'string', example: 'user-0001' }, location: locationSchema } } } },
        },
        responses: { 201: json(ref('User'), 'Created.'), ...errors, 422: json(ref('FieldErrors'), 'uid taken or identifying; bad time zone or country code.') },
      },
      get: {
        tags: ['Users'],
        summary: 'List the users of an organization',
        parameters: [
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
          { name: 'sort', in: 'query', schema: { type: 'string', enum: ['created_at', '-created_at'], default: 'created_at' } },
        ],
        responses: {
          200: json(
            {
              type: 'object',
              properties: {
                data: { type: 'array', items: ref('UserListItem') },
                meta: { type: 'object', properties: { offset: { type: 'integer' }, limit: { type: 'integer' }, total: { type: 'integer' }, sort: { type: 'string' } } },
              },
            },
            'One page of users (deleted users excluded).',
          ),
          ...errors,
        },
      },
    },
    '/organizations/{org_id}/users/{uid}': {
      parameters: [orgParam, uidParam],
      get: { tags: ['Users'], summary: 'Get a user', responses: { 200: json(ref('UserDetail'), 'The user.'), ...errors } },
      put: {
        tags: ['Users'],
        summary: "Update a user's location",
        description: 'Keys left out of `location` keep their value; null clears one.',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['location'], properties: { location: locationSchema } } } } },
        responses: { 200: json(ref('User'), 'The updated user.'), ...errors, 422: json(ref('FieldErrors'), 'Bad time zone or country code.') },
      },
      delete: {
        tags: ['Users'],
        summary: 'Delete a user',
        description: 'Access ends at once and for good; the data is kept (7 years, on special request). The uid stays reserved.',
        responses: { 200: json({ allOf: [ref('User'), { type: 'object', properties: { deleted_at: { type: 'string', format: 'date-time' } } }] }, 'The deleted user.'), ...errors },
      },
    },
    '/organizations/{org_id}/users/{uid}/marketplace': {
      parameters: [orgParam, uidParam],
      post: {
        tags: ['Users'],
        summary: 'Issue a new marketplace token and URL',
        description: 'Earlier tokens and URLs stop working at once; connected sources are unaffected.',
        responses: { 200: json({ type: 'object', properties: { marketplace: ref('Marketplace') } }, 'The new marketplace.'), ...errors },
      },
    },
    '/admin/organizations/{org_id}/users/{uid}/suspend': {
      parameters: [orgParam, uidParam],
      post: { tags: ['operator'], summary: 'Suspend a user (operator token)', description: 'Closes the marketplace; the rules service deletes the user\'s rules.', responses: { 200: json(ref('AdminUser'), 'The suspended user.'), 401: json(ref('Message'), 'Not the operator token.'), 404: errors[404] } },
    },
    '/admin/organizations/{org_id}/users/{uid}/unsuspend': {
      parameters: [orgParam, uidParam],
      post: { tags: ['operator'], summary: 'Unsuspend a user (operator token)', responses: { 200: json(ref('AdminUser'), 'The active user.'), 401: json(ref('Message'), 'Not the operator token.'), 404: errors[404] } },
    },
    '/marketplace/{token}': {
      parameters: [tokenParam],
      get: {
        tags: ['Marketplace'],
        summary: 'The marketplace (HTML page, or JSON with Accept: application/json)',
        security: [],
        responses: {
          200: { description: 'The marketplace.', content: { 'application/json': { schema: ref('MarketplaceView') }, 'text/html': { schema: { type: 'string' } } } },
          ...marketplaceErrors,
        },
      },
    },
    '/marketplace/{token}/sources/{type}/connect': {
      parameters: [tokenParam, typeParam],
      post: {
        tags: ['Marketplace'],
        summary: 'Connect a source',
        description: 'Cloud and mobile sources need the (simulated) provider consent: {"consent": true}. Emits a `connection` event.',
        security: [],
        requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { consent: { type: 'boolean' } } } } } },
        responses: { 200: json(ref('MarketplaceView'), 'The marketplace after the change (303 to the page for form posts).'), 422: json(ref('FieldErrors'), 'Consent missing.'), ...marketplaceErrors },
      },
    },
    '/marketplace/{token}/sources/{type}/disconnect': {
      parameters: [tokenParam, typeParam],
      post: { tags: ['Marketplace'], summary: 'Disconnect a source', security: [], responses: { 200: json(ref('MarketplaceView'), 'The marketplace after the change.'), ...marketplaceErrors } },
    },
    '/marketplace/{token}/timezone': {
      parameters: [tokenParam],
      post: {
        tags: ['Marketplace'],
        summary: 'The user chooses their time zone',
        description: 'Sets location.timezone with origin `user_defined` (records then reports offset_origin `user_defined`).',
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['timezone'], properties: { timezone: { type: 'string' } } } } } },
        responses: { 200: json(ref('MarketplaceView'), 'The marketplace after the change.'), 422: json(ref('FieldErrors'), 'Unsupported time zone.'), ...marketplaceErrors },
      },
    },
  },
  components: {
    schemas: {
      Marketplace: { type: 'object', properties: { token: { type: 'string' }, url: { type: 'string', format: 'uri' } } },
      Location: locationSchema,
      ConnectedSource: { type: 'object', properties: { type: { type: 'string' }, connected_at: { type: 'string', format: 'date-time' } } },
      User: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          uid: { type: 'string' },
          marketplace: ref('Marketplace'),
          location: ref('Location'),
          sources: { type: 'array', items: ref('ConnectedSource') },
          created_at: { type: 'string', format: 'date-time' },
          updated_at: { type: 'string', format: 'date-time' },
        },
      },
      UserDetail: { allOf: [ref('User'), { type: 'object', properties: { mobile: { type: 'object', properties: { token: { type: 'string' } } } } }] },
      AdminUser: { allOf: [ref('UserDetail'), { type: 'object', properties: { status: { type: 'string', enum: ['active', 'suspended'] } } }] },
      UserListItem: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          uid: { type: 'string' },
          marketplace: ref('Marketplace'),
          mobile: { type: 'object', properties: { token: { type: 'string' } } },
          location: ref('Location'),
          status: { type: 'string', enum: ['active', 'suspended'] },
          created_at: { type: 'string', format: 'date-time' },
          updated_at: { type: 'string', format: 'date-time' },
        },
      },
      MarketplaceView: {
        type: 'object',
        properties: {
          user: { type: 'object', properties: { uid: { type: 'string' }, status: { type: 'string' }, location: { type: 'object' } } },
          marketplace: { type: 'object', properties: { url: { type: 'string' } } },
          sources: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                type: { type: 'string' },
                name: { type: 'string' },
                kind: { type: 'string', enum: ['cloud', 'mobile', 'demo'] },
                connected: { type: 'boolean' },
                connected_at: { type: ['string', 'null'] },
                consent_required: { type: 'boolean' },
                actions: { type: 'object', properties: { connect: { type: 'string' }, disconnect: { type: 'string' }, consent: { type: 'string' } } },
              },
            },
          },
          actions: { type: 'object', properties: { timezone: { type: 'string' } } },
        },
      },
      Message: { type: 'object', properties: { message: { type: 'string' } } },
      ErrorList: { type: 'object', properties: { errors: { type: 'array', items: { type: 'string' } } } },
      FieldErrors: { type: 'object', properties: { errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } } } },
    },
  },
};
