export * from './rate-limit.port';
export { MemoryRateLimitStore } from './rate-limit.memory';
