/**
 * The RateLimitStore contract on the in-memory store.
 */
import { MemoryRateLimitStore } from '../src';
import { rateLimitContract } from '../src/rate-limit.contract';

rateLimitContract('memory', async () => ({ open: async () => new MemoryRateLimitStore() }));
