/**
 * Reads settings from the environment through a joi schema, once, at start-up. A bad value stops
 * the process before anything connects, with a message that names the variable.
 */
import Joi from 'joi';

export class ConfigError extends Error {
  constructor(readonly variables: string[], message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function loadConfig<T>(schema: Joi.ObjectSchema<T>, env: NodeJS.ProcessEnv = process.env): T {
  // Only the variables the schema knows are read; the rest of the environment is ignored.
  // describe() walks the whole schema, so it runs once, not once per variable of the environment.
  const keys = schema.describe().keys ?? {};
  const known = Object.fromEntries(Object.entries(env).filter(([k, v]) => v !== undefined && v !== '' && keys[k] !== undefined));
  const { value, error } = schema.validate(known, { abortEarly: false, convert: true, stripUnknown: true });
  if (error) {
    const variables = [...new Set(error.details.map((d) => String(d.path[0] ?? d.context?.key ?? '?')))];
    const lines = error.details.map((d) => `  ${String(d.path[0] ?? d.context?.key)}: ${d.message.replace(/"/g, '')}`);
    throw new ConfigError(variables, `Invalid configuration:\n${lines.join('\n')}`);
  }
  return value as T;
}
