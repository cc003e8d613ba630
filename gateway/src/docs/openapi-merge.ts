/**
 * The merged OpenAPI 3.1 document: the gateway's own part (operator API, health) plus the part
 * each service serves at /openapi.json next to its routes.
 */
import type { Logger } from '@wellstream/logging';
import type { ServiceDirectory } from '../proxy/service-proxy';
import { addGatewayAnswers } from './gateway-answers';
import { gatewayOpenApi } from './gateway.openapi';
import { operatorReadsOpenApi } from './operator-reads.openapi';
import type { OpenApiPart } from './openapi-part';

export async function mergedOpenApi(directory: ServiceDirectory, publicUrl: string, logger: Logger) {
  const parts: OpenApiPart[] = [gatewayOpenApi, operatorReadsOpenApi];
  await Promise.all(
    Object.entries(directory).map(async ([name, url]) => {
      try {
        const res = await fetch(`${url}/openapi.json`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) parts.push((await res.json()) as OpenApiPart);
      } catch (err) {
        logger.warn('openapi part unavailable', { service: name, error: err });
      }
    }),
  );
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
  // Deep copies: the gateway's own part is a module constant and the merge adds to its operations.
  for (const p of parts.map((x) => structuredClone(x))) {
    // Path by path, operation by operation: two parts may document different methods of one path.
    for (const [template, item] of Object.entries(p.paths ?? {})) doc.paths[template] = { ...(doc.paths[template] as object | undefined), ...(item as object) };
    Object.assign(doc.components.schemas, p.components?.schemas ?? {});
    doc.tags.push(...(p.tags ?? []));
  }
  addGatewayAnswers(doc.paths as Record<string, Record<string, unknown>>);
  return doc;
}
