/**
 * Validation of a rule body (create and update take the same fields), following the Rule table of
 * the interface. Every violation is reported at once, keyed by field path (`metric.type`,
 * `threshold.comparator`, …), as a 422.
 */
import Joi from 'joi';
import { isValidMetricUnit, METRIC_ORIGINS, METRIC_TYPES, metricDefinition } from '@wellstream/catalog';
import { unprocessable, FieldErrors } from '@wellstream/errors';
import { joiFieldErrors } from '@wellstream/errors';
import { parseIsoDuration } from './iso-duration';
import { COMPARATORS, MAX_WINDOW_MS, MIN_WINDOW_MS, RULE_TYPES, RuleInput } from './rule';

const optionalText = Joi.string().allow(null).default(null);

export const ruleBodySchema = Joi.object<RuleInput>({
  type: Joi.string()
    .valid(...RULE_TYPES)
    .required()
    .messages({ 'any.only': `type must be one of ${RULE_TYPES.join(', ')}` }),
  window: Joi.string().required(),
  // Any length: the message is the customer's text, returned as is when the rule triggers.
  message: Joi.string().required(),
  metric: Joi.object({
    type: Joi.string()
      .valid(...METRIC_TYPES)
      .required()
      .messages({ 'any.only': 'metric.type must be a valid metric type' }),
    unit: optionalText,
    origin: Joi.string()
      .valid(...METRIC_ORIGINS)
      .allow(null)
      .default(null)
      .messages({ 'any.only': `metric.origin must be one of ${METRIC_ORIGINS.join(', ')} or null` }),
    // Not in use, but kept and echoed in the rule event.
    sub_type: optionalText,
  }).required(),
  threshold: Joi.object({
    value: Joi.number().strict().required(),
    comparator: Joi.string()
      .valid(...COMPARATORS)
      .required()
      .messages({ 'any.only': `threshold.comparator must be one of ${COMPARATORS.join(', ')}` }),
  }).required(),
});

export interface ValidRuleInput {
  input: RuleInput;
  windowMs: number;
}

/** Validates a request body into a rule input, or throws a 422 naming every wrong field. */
export function validateRuleBody(body: unknown): ValidRuleInput {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  const { value, error } = ruleBodySchema.validate(isObject ? body : {}, { abortEarly: false, stripUnknown: true });
  if (!isObject) add('body', 'must be a JSON object');
  if (error) for (const [field, msgs] of Object.entries(joiFieldErrors(error))) for (const m of msgs) add(field, m);

  const raw = (isObject ? body : {}) as { window?: unknown; metric?: { type?: unknown; unit?: unknown } };
  let windowMs = 0;
  if (typeof raw.window === 'string' && !errors.window) {
    const parsed = parseIsoDuration(raw.window);
    if (!parsed.ok) add('window', `window ${parsed.reason}`);
    else if (parsed.ms < MIN_WINDOW_MS) add('window', 'window must be at least one second long');
    else if (parsed.ms > MAX_WINDOW_MS) add('window', 'window must not be longer than one year (P1Y)');
    else windowMs = parsed.ms;
  }
  const metricType = raw.metric && typeof raw.metric === 'object' ? raw.metric.type : undefined;
  const unit = raw.metric && typeof raw.metric === 'object' ? raw.metric.unit : undefined;
  if (typeof unit === 'string' && !errors['metric.unit'] && typeof metricType === 'string') {
    const def = metricDefinition(metricType);
    if (def && !isValidMetricUnit(metricType, unit)) add('metric.unit', `metric.unit must be one of ${def.units.join(', ')} for ${metricType}`);
  }
  if (Object.keys(errors).length > 0) throw unprocessable('RULE_INVALID', errors);
  return { input: value as RuleInput, windowMs };
}
