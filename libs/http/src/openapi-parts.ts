/**
 * Building blocks every OpenAPI part shares, so the document states the error bodies exactly as
 * toHttpError and the app factory produce them. The three bodies are told apart by their required
 * properties: `message` (a string), or `errors` as an array, or `errors` as an object keyed by field.
 */

export const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const errorSchemas = {
  Message: {
    type: 'object',
    description: 'Missing or unknown token (401), rate limit (429), unavailable or failing server (5xx).',
    required: ['message'],
    additionalProperties: false,
    properties: { message: { type: 'string', minLength: 1 } },
  },
  ErrorList: {
    type: 'object',
    description: 'Organization not allowed (401), unknown resource (404), conflict (409), malformed JSON or path (400), body too large (413), and 422s without a field.',
    required: ['errors'],
    additionalProperties: false,
    properties: { errors: { type: 'array', minItems: 1, items: { type: 'string' } } },
  },
  FieldErrors: {
    type: 'object',
    description: 'Invalid fields (400: wrong types or formats; 422: values not accepted), keyed by field path, e.g. `records[3].metrics[0].value`.',
    required: ['errors'],
    additionalProperties: false,
    properties: { errors: { type: 'object', minProperties: 1, additionalProperties: { type: 'array', minItems: 1, items: { type: 'string' } } } },
  },
  Error: {
    description: 'Any error body: exactly one of the three shapes (they differ in required properties and in the type of `errors`).',
    oneOf: [schemaRef('Message'), schemaRef('ErrorList'), schemaRef('FieldErrors')],
  },
} as const;

type ErrorShape = 'Message' | 'ErrorList' | 'FieldErrors';

/** The shapes each status can carry (libs/http toHttpError and the app factory's handlers). */
const SHAPES: Record<number, ErrorShape[]> = {
  400: ['FieldErrors', 'ErrorList'],
  401: ['Message', 'ErrorList'],
  404: ['ErrorList'],
  409: ['ErrorList'],
  413: ['ErrorList'],
  422: ['FieldErrors', 'ErrorList'],
  429: ['Message'],
  502: ['Message'],
  503: ['Message'],
};

/** A documented error answer whose schema admits exactly the shapes `status` can carry. */
export function errorResponse(status: number, description: string, shapes: ErrorShape[] = SHAPES[status] ?? ['Message']) {
  const schema = shapes.length === 1 ? schemaRef(shapes[0]) : { oneOf: shapes.map(schemaRef) };
  return { description, content: { 'application/json': { schema } } };
}

export const jsonResponse = (description: string, schema: unknown) => ({ description, content: { 'application/json': { schema } } });
