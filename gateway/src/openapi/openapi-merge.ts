/**
 * The merged OpenAPI 3.1 document: the parts built from the endpoint declarations
 * (@wellstream/endpoints), the gateway's own (operator API) first, then each service's in the
 * deployment (the document does not change with a service's uptime).
 */
import { gatewayOpenApi, notificationsOpenApi, OpenApiPart, operatorReadsOpenApi, recordsOpenApi, rulesOpenApi, ServiceName, sourcesOpenApi, streamsOpenApi, usersOpenApi } from '@wellstream/endpoints';
import type { ServiceDirectory } from '../proxy/service-proxy';
import { addGatewayAnswers } from './gateway-answers';

const SERVICE_PARTS: [ServiceName, OpenApiPart][] = [
  ['users', usersOpenApi],
  ['records', recordsOpenApi],
  ['streams', streamsOpenApi],
  ['notifications', notificationsOpenApi],
  ['rules', rulesOpenApi],
  ['sources', sourcesOpenApi],
];

export function mergedOpenApi(directory: ServiceDirectory, publicUrl: string) {
  const parts: OpenApiPart[] = [gatewayOpenApi, operatorReadsOpenApi, ...SERVICE_PARTS.filter(([name]) => directory[name]).map(([, part]) => part)];
  const doc = {
    openapi: '3.1.0',
    info: {
      title: 'Wellstream API',
      version: '2.0.0',
      description:
        'Wellness data platform. Every endpoint takes the developer token as the `token` query parameter (or `Authorization: Bearer`).',
    },
    servers: [{ url: `${publicUrl}/v2` }],
    tags: [] as { name: string; description?: string }[],
    paths: {} as Record<string, unknown>,
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'query', name: 'token' } },
      schemas: {} as Record<string, unknown>,
    },
    security: [{ token: [] }],
  };
  // Copies through JSON, as the document is sent: the parts are module constants the merge adds to,
  // and one response object may be shared by operations that get different gateway answers.
  for (const p of parts.map((x) => JSON.parse(JSON.stringify(x)) as OpenApiPart)) {
    // Path by path, operation by operation: two parts may document different methods of one path.
    for (const [template, item] of Object.entries(p.paths ?? {})) doc.paths[template] = { ...(doc.paths[template] as object | undefined), ...(item as object) };
    Object.assign(doc.components.schemas, p.components?.schemas ?? {});
    doc.tags.push(...(p.tags ?? []));
  }
  addGatewayAnswers(doc.paths as Record<string, Record<string, unknown>>);
  return doc;
}
