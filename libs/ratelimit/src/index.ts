export * from './rate-limit.port';
export { MemoryRateLimitStore } from './rate-limit.memory';
export { RedisRateLimitStore } from './rate-limit.redis';
export type { RedisRateLimitStoreOptions } from './rate-limit.redis';
