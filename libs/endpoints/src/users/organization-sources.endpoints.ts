/**
 * The operator's connected-sources count (users service; part of its declarations).
 */
import { errorResponse, jsonResponse } from '@wellstream/http';
import type { DeclaredPathItem } from '../endpoint';

const admin = { auth: 'admin' } as const;

const count = { type: 'integer', minimum: 0 };

export const organizationSourcesSchemas = {
  OrganizationSources: {
    type: 'object',
    required: ['organization_id', 'users', 'data'],
    additionalProperties: false,
    properties: {
      organization_id: { type: 'string' },
      users: { ...count, description: 'Users of the organization counted (active and suspended).' },
      data: {
        type: 'array',
        description: 'One entry per source type at least one user has connected, by type.',
        items: {
          type: 'object',
          required: ['type', 'connected', 'by_status'],
          additionalProperties: false,
          properties: {
            type: { type: 'string', description: 'The source type, as in a user\'s `sources`.' },
            connected: { ...count, description: 'Users with this source connected.' },
            by_status: {
              type: 'object',
              required: ['active', 'auth_expired', 'error'],
              additionalProperties: false,
              description: 'The connections by state; sources without one (the demo, phone apps) count as active.',
              properties: { active: count, auth_expired: count, error: count },
            },
          },
        },
      },
    },
  },
};

export const organizationSourcesPaths: Record<string, DeclaredPathItem> = {
  '/admin/organizations/{org_id}/sources': {
    parameters: [{ name: 'org_id', in: 'path', required: true, schema: { type: 'string', minLength: 1 } }],
    get: {
      ...admin,
      operationId: 'adminCountOrganizationSources',
      tags: ['operator'],
      summary: 'Connected sources of an organization per source type (operator token)',
      description: "Counted from the users' `sources` (what GET user shows), a page of users at a time.",
      responses: {
        200: jsonResponse('Counts per source type', { $ref: '#/components/schemas/OrganizationSources' }),
        404: errorResponse(404, 'Unknown organization.'),
      },
    },
  },
};
