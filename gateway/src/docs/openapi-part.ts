/** What each part of the merged OpenAPI document brings: the gateway's own part and each service's. */
export interface OpenApiPart {
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> };
  tags?: { name: string; description?: string }[];
}
