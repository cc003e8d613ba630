/**
 * What the marketplace's operations share in the published document, whoever answers them (the
 * users service draws the page and takes the time zone; the sources service connects and
 * disconnects sources).
 */
import { SOURCE_TYPES } from '@wellstream/catalog';
import { errorResponse } from '@wellstream/http';

export const tokenParam = { name: 'token', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: 'The marketplace token.' };
export const typeParam = { name: 'type', in: 'path', required: true, schema: { type: 'string', minLength: 1 }, description: `Source type: ${SOURCE_TYPES.join(', ')} (others: 404).` };
export const htmlContent = { 'text/html': { schema: { type: 'string' } } };

/** Marketplace answers are HTML for browsers and JSON for API clients (Accept, or a JSON body). */
export const marketplaceError = (status: number, description: string) => {
  const e = errorResponse(status, `${description} An HTML page unless the client asked for JSON.`);
  return { ...e, content: { ...e.content, ...htmlContent } };
};
