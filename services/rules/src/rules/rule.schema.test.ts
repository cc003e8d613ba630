/**
 * Validation of rule bodies against the Rule schema of the OpenAPI document: every violation keyed by field.
 */
import { isAppError } from '@wellstream/errors';
import { validateRuleBody } from './rule.schema';

const valid = {
  type: 'user/missing_data',
  window: 'P3D',
  message: 'Please weigh yourself',
  metric: { type: 'body_weight' },
  threshold: { value: 1, comparator: 'less_than' },
};

function errorsOf(body: unknown): Record<string, string[]> {
  try {
    validateRuleBody(body);
  } catch (err) {
    if (isAppError(err) && err.kind === 'unprocessable' && err.fieldErrors) return err.fieldErrors;
    throw err;
  }
  throw new Error('expected a validation error');
}

describe('validateRuleBody', () => {
  it('accepts a valid rule and fills optional metric fields with null', () => {
    const { input, windowMs } = validateRuleBody({ ...valid, id: 'ignored', extra: true });
    expect(windowMs).toBe(3 * 24 * 3600 * 1000);
    expect(input).toEqual({ ...valid, metric: { type: 'body_weight', unit: null, origin: null, sub_type: null } });
  });

  it('accepts a long message, a unit of the metric, each origin, a sub_type, float thresholds and each comparator', () => {
    for (const comparator of ['less_than', 'greather_than', 'equal_to']) {
      for (const origin of ['device', 'manual', 'unknown', null]) {
        const body = {
          ...valid,
          message: 'x'.repeat(20_000),
          metric: { type: 'body_weight', unit: 'lb', origin, sub_type: 'anything' },
          threshold: { value: 1.5, comparator },
        };
        expect(validateRuleBody(body).input.metric.origin).toBe(origin);
      }
    }
  });

  it.each([
    ['type missing', { type: undefined }, 'type'],
    ['type other than user/missing_data', { type: 'user/threshold' }, 'type'],
    ['window missing', { window: undefined }, 'window'],
    ['window not a string', { window: 3 }, 'window'],
    ['window not ISO 8601', { window: '3 days' }, 'window'],
    ['window zero', { window: 'P0D' }, 'window'],
    ['window negative', { window: '-P1D' }, 'window'],
    ['window longer than a year', { window: 'P366D' }, 'window'],
    ['window of two years', { window: 'P2Y' }, 'window'],
    ['message missing', { message: undefined }, 'message'],
    ['message empty', { message: '' }, 'message'],
    ['message not a string', { message: 42 }, 'message'],
    ['metric missing', { metric: undefined }, 'metric'],
    ['metric.type missing', { metric: {} }, 'metric.type'],
    ['metric.type unknown', { metric: { type: 'body_wait' } }, 'metric.type'],
    ['metric.unit not valid for the metric', { metric: { type: 'body_weight', unit: 'mg/dl' } }, 'metric.unit'],
    ['metric.unit not a string', { metric: { type: 'body_weight', unit: 5 } }, 'metric.unit'],
    ['metric.origin unknown', { metric: { type: 'body_weight', origin: 'sensor' } }, 'metric.origin'],
    ['threshold missing', { threshold: undefined }, 'threshold'],
    ['threshold.value missing', { threshold: { comparator: 'less_than' } }, 'threshold.value'],
    ['threshold.value a string', { threshold: { value: '1', comparator: 'less_than' } }, 'threshold.value'],
    ['threshold.comparator missing', { threshold: { value: 1 } }, 'threshold.comparator'],
    ['threshold.comparator misspelt the usual way', { threshold: { value: 1, comparator: 'greater_than' } }, 'threshold.comparator'],
  ])('%s → 422 keyed by %s', (_name, patch, field) => {
    const errors = errorsOf({ ...valid, ...patch });
    expect(Object.keys(errors)).toEqual([field]);
    expect(errors[field]).toEqual([expect.any(String)]);
  });

  it('reports every violation at once', () => {
    const errors = errorsOf({ type: 'x', window: 'P0D', metric: { type: 'nope', origin: 'x' }, threshold: { value: 'a', comparator: 'b' } });
    expect(Object.keys(errors).sort()).toEqual(['message', 'metric.origin', 'metric.type', 'threshold.comparator', 'threshold.value', 'type', 'window'].sort());
  });

  it('rejects a body that is not an object', () => {
    expect(errorsOf([valid])).toHaveProperty('body');
    expect(errorsOf(null)).toHaveProperty('body');
  });
});
