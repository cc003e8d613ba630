/**
 * An owner's part of the published OpenAPI document, built from its endpoint declarations: the
 * paths (each path item's shared parameters first, then its operations in declaration order), the
 * schemas the operations refer to and the tags. The gateway merges the parts into /v2/openapi.json.
 */
import type { EndpointDeclaration } from './endpoint';

export interface OpenApiPart {
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> };
  tags?: { name: string; description?: string }[];
}

export function openApiPart(declarations: readonly EndpointDeclaration[], extra: { tags?: OpenApiPart['tags']; schemas?: Record<string, unknown> } = {}): OpenApiPart {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const d of declarations) {
    const item = (paths[d.path] ??= d.pathParameters ? { parameters: d.pathParameters } : {});
    if (item[d.method]) throw new Error(`${d.method} ${d.path} is declared twice`);
    item[d.method] = d.operation;
  }
  return { ...(extra.tags ? { tags: extra.tags } : {}), paths, ...(extra.schemas ? { components: { schemas: extra.schemas } } : {}) };
}
