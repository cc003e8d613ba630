/**
 * Polar under its limits (../polar-limits.suite.ts) on the distributed runtime (real Kafka,
 * FerretDB, Redis: the budget and its pauses are kept in Redis).
 */
import { polarLimitsContract } from './polar-limits.suite';

jest.setTimeout(400_000);

describe('Polar limits (distributed)', () => polarLimitsContract('distributed'));
