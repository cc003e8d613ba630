/**
 * Polar under its limits (../polar-limits.suite.ts) on the embedded runtime.
 */
import { polarLimitsContract } from './polar-limits.suite';

jest.setTimeout(330_000);

describe('Polar limits (embedded)', () => polarLimitsContract('embedded'));
