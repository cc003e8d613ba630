/**
 * Reads a message's tenant from a JSON field of its value: for messages written before a topic had
 * tenant slices (the migration), which carry the tenant only inside their value.
 */
export function tenantFromValue(value: string, field: string): string | undefined {
  try {
    const v = (JSON.parse(value) as Record<string, unknown>)[field];
    return typeof v === 'string' && v !== '' ? v : undefined;
  } catch {
    return undefined;
  }
}
