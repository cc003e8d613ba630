export * from './rate-limit.port';
export { MemoryRateLimitStore } from './rate-limit.memory';
export { RedisRateLimitStore } from './rate-limit.redis';
export type { RedisRateLimitStoreOptions } from './rate-limit.redis';
export { FaultTolerantRateLimitStore, RateLimitStoreUnavailableError } from './rate-limit.fault-tolerant';
export type { FaultTolerantOptions, RateLimitFailureMode } from './rate-limit.fault-tolerant';
