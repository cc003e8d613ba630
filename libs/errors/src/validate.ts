/**
 * joi validation that throws domain errors keyed by field path, e.g. `records[3].metrics[0].value`.
 * Here rather than in libs/http so use cases validate without reaching express.
 */
import Joi from 'joi';
import { AppError, FieldErrors } from './app-error';

export function fieldPath(path: (string | number)[]): string {
  return path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

export function joiFieldErrors(error: Joi.ValidationError): FieldErrors {
  const out: FieldErrors = {};
  for (const d of error.details) {
    const key = fieldPath(d.path) || 'body';
    (out[key] ??= []).push(d.message.replace(/"/g, ''));
  }
  return out;
}

export function validate<T>(
  schema: Joi.Schema<T>,
  value: unknown,
  options: { kind?: 'bad_request' | 'unprocessable'; code?: string; joi?: Joi.ValidationOptions } = {},
): T {
  const { value: out, error } = schema.validate(value, { abortEarly: false, ...options.joi });
  if (error) {
    throw new AppError(options.kind ?? 'bad_request', options.code ?? 'VALIDATION_FAILED', error.message, {
      fieldErrors: joiFieldErrors(error),
    });
  }
  return out as T;
}
